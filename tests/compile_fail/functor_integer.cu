// Must not compile: sigmoid has no integer version.
#include <ew/elementwise.cuh>
int main() {
  int* p = nullptr;
  return static_cast<int>(ew::elementwise(ew::sigmoid<int>{}, 16, p, p));
}
