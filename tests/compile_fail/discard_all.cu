// Must not compile: every output is ew::discard, and a launch must write one.
#include <ew/elementwise.cuh>
int main() {
  float* x = nullptr;
  return static_cast<int>(ew::elementwise(ew::sincos<float>{}, 16, ew::out(ew::discard, ew::discard), x));
}
