// Must not compile: float3 (12 bytes) has no vector form; it takes the scalar path, with VecWidth 1 or
// ew::vec_auto, and a wider VecWidth is rejected with a message that says so.
#include <ew/elementwise.cuh>
struct copy3 {
  EW_HD float3 operator()(float3 x) const { return x; }
};
int main() {
  float3* p = nullptr;
  return static_cast<int>(ew::elementwise<copy3, 2>(copy3{}, 16, p, p));
}
