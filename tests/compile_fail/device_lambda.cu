// Must not compile, with a message that says what to do: a __device__ lambda as the op (nvcc gives host
// code a placeholder without its call operator, so its result type cannot be seen). Built with
// --extended-lambda.
#include <ew/elementwise.cuh>
int main() {
  float* p = nullptr;
  return static_cast<int>(ew::elementwise([] __device__(float x) { return 2.0f * x; }, 16, p, p));
}
