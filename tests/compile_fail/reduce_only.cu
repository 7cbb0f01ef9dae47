// Must not compile: every output of an N-dimensional launch is a side reduction, and such a launch needs
// an array output besides them (a reduction alone is a 1-D launch).
#include <ew/elementwise.cuh>
int main() {
  float* x = nullptr;
  float* m = nullptr;
  return static_cast<int>(ew::elementwise(ew::abs<float>{}, ew::extents{4, 4},
                                          ew::out(ew::reduce_into<ew::reduction::max>(m)), x));
}
