// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
//
// Sticky errors are returned, not swallowed. A kernel that traps or touches unmapped memory leaves the
// CUDA context unusable for the rest of the process, so each scenario runs in a child process of its own.
//
// Built twice from this file: ew_sticky_error_test (the default build) and ew_sticky_error_debug_test
// (EW_DEBUG_SYNC). Run without arguments, a binary runs each of its scenarios in a child process and
// reports; the default one then also runs its debug sibling from the same directory. Run with a scenario
// name, it runs that scenario in-process. Exit 0 when all pass, 1 when one fails, 77 when there is no GPU
// (ctest: skipped). Not for compute-sanitizer: the faults are on purpose.

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include <ew/elementwise.cuh>

extern char** environ;

namespace {

constexpr int skipped = 77;

__global__ void trap_kernel() { __trap(); }

/// Identity that traps on a negative element: an ew kernel that faults.
struct trap_on_negative {
  EW_HD
  float operator()(float x) const {
#ifdef __CUDA_ARCH__
    if (x < 0.0f) __trap();
#endif
    return x;
  }
};

int failures = 0;

void expect(bool ok, const std::string& what) {
  std::printf("    %s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  if (!ok) ++failures;
}

std::string name(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

/// Device buffers and a stream made before the fault (nothing can be allocated after it).
struct setup {
  static constexpr std::size_t n = 1 << 20;
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  cudaStream_t stream = nullptr;

  bool make() {
    std::vector<float> host(n, 1.0f);
    host[n / 2] = -1.0f;  // the one element trap_on_negative traps on
    bool ok = cudaMalloc(&a, n * sizeof(float)) == cudaSuccess &&
              cudaMalloc(&b, n * sizeof(float)) == cudaSuccess &&
              cudaMalloc(&c, n * sizeof(float)) == cudaSuccess &&
              cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess &&
              cudaMemcpy(b, host.data(), n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess &&
              cudaMemset(c, 0, n * sizeof(float)) == cudaSuccess &&
              cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess &&
              cudaDeviceSynchronize() == cudaSuccess;
    expect(ok, "set-up before the fault");
    return ok;
  }
  cudaError_t add(cudaStream_t s) { return ew::elementwise(ew::add<float>{}, n, c, ew::in(a, b), s); }
};

#if !defined(EW_DEBUG_SYNC)

__global__ void write_one(int* p) { *p = 1; }

/// After the fault: ew returns `sticky` (the error the fault left), says CUDA's string, keeps returning
/// it, and an n == 0 call (which makes no CUDA call) still succeeds.
void expect_returned(setup& s, cudaError_t sticky, bool same_code) {
  const cudaError_t e = s.add(s.stream);
  std::printf("    ew::elementwise -> %s; message \"%s\"\n", name(e).c_str(), ew::last_error_message());
  expect(e != cudaSuccess, "ew returns an error, not cudaSuccess");
  if (same_code) expect(e == sticky, "ew returns the same error the fault left (" + name(sticky) + ")");
  expect(std::strcmp(ew::last_error_message(), cudaGetErrorString(e)) == 0, "the message is CUDA's string");
  expect(s.add(s.stream) != cudaSuccess, "a second call returns it again (the error is sticky)");
  expect(ew::elementwise(ew::add<float>{}, 0, s.c, ew::in(s.a, s.b), s.stream) == cudaSuccess,
         "n == 0 still succeeds: it makes no CUDA call");
}

/// A trap in earlier work, reported by a synchronization; ew's next call returns it. `warm`: ew already
/// ran on this device (its caches are filled, so the launch itself reports the error); otherwise ew's
/// first call happens after the fault (its device queries run in the broken context).
void earlier_trap(bool warm) {
  setup s;
  if (!s.make()) return;
  if (warm)
    expect(s.add(s.stream) == cudaSuccess && cudaStreamSynchronize(s.stream) == cudaSuccess, "warm-up call");
  trap_kernel<<<1, 1>>>();
  const cudaError_t sticky = cudaDeviceSynchronize();
  std::printf("    trap kernel, then cudaDeviceSynchronize -> %s\n", name(sticky).c_str());
  expect(sticky != cudaSuccess, "the trap left an error");
  expect_returned(s, sticky, warm);
}

/// An illegal address in earlier work (a different sticky error code), passed through unchanged.
void earlier_illegal_address() {
  setup s;
  if (!s.make()) return;
  expect(s.add(s.stream) == cudaSuccess && cudaStreamSynchronize(s.stream) == cudaSuccess, "warm-up call");
  write_one<<<1, 1>>>(reinterpret_cast<int*>(std::uintptr_t{64}));  // never mapped
  const cudaError_t sticky = cudaDeviceSynchronize();
  std::printf("    write to address 64, then cudaDeviceSynchronize -> %s\n", name(sticky).c_str());
  expect(sticky != cudaSuccess, "the bad write left an error");
  expect_returned(s, sticky, true);
}

/// ew's own kernel faults. The call itself cannot know (the launch is asynchronous); the stream's next
/// synchronization reports it, and ew's next call returns it.
void own_fault() {
  setup s;
  if (!s.make()) return;
  const cudaError_t launched =
      ew::elementwise(trap_on_negative{}, setup::n, s.c, static_cast<const float*>(s.a), s.stream);
  std::printf("    faulting ew call -> %s (asynchronous: the fault comes later)\n", name(launched).c_str());
  const cudaError_t sticky = cudaStreamSynchronize(s.stream);
  std::printf("    cudaStreamSynchronize -> %s\n", name(sticky).c_str());
  expect(sticky != cudaSuccess, "the synchronization reports the fault");
  expect_returned(s, sticky, true);
}

#else  // EW_DEBUG_SYNC

/// In debug mode the faulting call itself returns the fault.
void debug_own_fault() {
  setup s;
  if (!s.make()) return;
  const cudaError_t e =
      ew::elementwise(trap_on_negative{}, setup::n, s.c, static_cast<const float*>(s.a), s.stream);
  std::printf("    faulting ew call (EW_DEBUG_SYNC) -> %s; message \"%s\"\n", name(e).c_str(),
              ew::last_error_message());
  expect(e != cudaSuccess, "the call itself returns the fault");
  expect(std::strcmp(ew::last_error_message(), cudaGetErrorString(e)) == 0, "the message is CUDA's string");
  const cudaError_t after = cudaDeviceSynchronize();
  expect(after == e, "it is the error the context holds (" + name(after) + ")");
}

/// In debug mode a fault in earlier, unsynchronized work on the same stream is returned by the next call.
void debug_earlier_unsynchronized() {
  setup s;
  if (!s.make()) return;
  trap_kernel<<<1, 1>>>();  // legacy stream, not synchronized
  const cudaError_t e = s.add(nullptr);
  std::printf("    trap kernel, then ew on the same stream (EW_DEBUG_SYNC) -> %s\n", name(e).c_str());
  expect(e != cudaSuccess, "the call returns the earlier fault");
  const cudaError_t after = cudaDeviceSynchronize();
  expect(after == e, "it is the error the context holds (" + name(after) + ")");
}

#endif

struct scenario {
  const char* name;
  void (*run)();
};

const std::vector<scenario>& scenarios() {
  static const std::vector<scenario> all {
#if !defined(EW_DEBUG_SYNC)
    {"earlier_trap_warm", [] { earlier_trap(true); }}, {"earlier_trap_cold", [] { earlier_trap(false); }},
        {"earlier_illegal_address", earlier_illegal_address}, {"own_fault", own_fault},
#else
    {"debug_own_fault", debug_own_fault}, {"debug_earlier_unsynchronized", debug_earlier_unsynchronized},
#endif
  };
  return all;
}

/// Runs `path args...` and returns its exit code (1 if it did not exit normally).
int spawn(const std::string& path, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(stdout);
  pid_t pid = 0;
  if (posix_spawn(&pid, path.c_str(), nullptr, nullptr, argv.data(), environ) != 0) return 1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return 1;
  if (WIFSIGNALED(status)) std::printf("    (killed by signal %d)\n", WTERMSIG(status));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

std::string self_path() {
  char buf[PATH_MAX];
  const ssize_t len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (len <= 0) return "";
  buf[len] = '\0';
  return buf;
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc >= 2) {
    // One scenario, in this process.
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
      std::printf("SKIPPED: no usable CUDA device\n");
      return skipped;
    }
    for (const scenario& s : scenarios()) {
      if (std::strcmp(argv[1], s.name) == 0) {
        std::printf("%s:\n", s.name);
        s.run();
        return failures == 0 ? 0 : 1;
      }
    }
    std::printf("unknown scenario %s\n", argv[1]);
    return 1;
  }
  // Every scenario in a child process. The parent itself makes no CUDA call.
  const std::string self = self_path();
  int failed = 0, ran = 0, skips = 0;
  for (const scenario& s : scenarios()) {
    const int rc = spawn(self, {s.name});
    ++ran;
    if (rc == skipped)
      ++skips;
    else if (rc != 0)
      ++failed;
    std::printf("  %s: %s\n", s.name, rc == 0 ? "passed" : (rc == skipped ? "skipped" : "FAILED"));
  }
#if !defined(EW_DEBUG_SYNC)
  const std::string sibling = self.substr(0, self.rfind('/') + 1) + "ew_sticky_error_debug_test";
  if (access(sibling.c_str(), X_OK) == 0) {
    std::printf("%s:\n", sibling.c_str());
    const int rc = spawn(sibling, {});
    ++ran;
    if (rc == skipped)
      ++skips;
    else if (rc != 0)
      ++failed;
  } else {
    std::printf("note: %s not found; the EW_DEBUG_SYNC scenarios did not run\n", sibling.c_str());
  }
#endif
  if (skips == ran) {
    std::printf("SKIPPED: no usable CUDA device\n");
    return skipped;
  }
  std::printf("%d of %d failed\n", failed, ran);
  return failed == 0 ? 0 : 1;
}
