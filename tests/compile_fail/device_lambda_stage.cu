// Must not compile, with a message that says what to do: a __device__ lambda as a stage of ew::compose.
// Built with --extended-lambda.
#include <ew/elementwise.cuh>
int main() {
  float* p = nullptr;
  const auto op = ew::compose(ew::relu<float>{}, [] __device__(float x) { return 2.0f * x; });
  return static_cast<int>(ew::elementwise(op, 16, p, p));
}
