// Must not compile: every output is a side reduction, and a launch needs an array output besides them.
#include <ew/elementwise.cuh>
int main() {
  float* x = nullptr;
  float* m = nullptr;
  return static_cast<int>(
      ew::elementwise(ew::abs<float>{}, 16, ew::out(ew::reduce_into<ew::reduction::max>(m)), x));
}
