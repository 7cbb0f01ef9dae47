// Must not compile: 4 doubles are 32 bytes, more than one 16-byte vector access.
#include <ew/elementwise.cuh>
int main() {
  double* p = nullptr;
  return static_cast<int>(ew::elementwise<ew::relu<double>, 4>({}, 16, p, p));
}
