// Must not compile: add takes two inputs, one is given.
#include <ew/elementwise.cuh>
int main() {
  float* p = nullptr;
  return static_cast<int>(ew::elementwise(ew::add<float>{}, 16, p, p));
}
