// Must not compile: random operands take part in 1-D launches only.
#include <ew/elementwise.cuh>
int main() {
  float* y = nullptr;
  return static_cast<int>(
      ew::elementwise(ew::cast<float>{}, ew::extents{4, 4}, y, ew::random_uniform(ew::philox_seed{1, 0})));
}
