// Must not compile: stage 2 (relu, one float) cannot take what stage 1 (sincos) returns, a tuple.
#include <ew/elementwise.cuh>
int main() {
  float* p = nullptr;
  const auto op = ew::compose(ew::add<float>{}, ew::sincos<float>{}, ew::relu<float>{});
  return static_cast<int>(ew::elementwise(op, 16, p, ew::in(p, p)));
}
