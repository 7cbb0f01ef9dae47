// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Catch2's test macros, v2 or v3: tests/CMakeLists.txt finds either and says which with
// EW_TEST_CATCH2_MAJOR. The tests use only what both have (TEST_CASE, TEMPLATE_TEST_CASE, SECTION, the
// assertion and logging macros, GENERATE); the mains also take Catch::Session from here.

#if EW_TEST_CATCH2_MAJOR >= 3
#include <catch2/catch_session.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#if defined(__CUDACC__) && !defined(__clang__)
// Catch2 v3's assertion macros bracket their bodies with _Pragma("nv_diagnostic push") and "pop" under nvcc.
// nvcc 13.0's front end (cudafe++) then takes minutes on a file that asserts inside a member function and
// uses INFO (a 6-line file: over 40 s against 2 s without them; test_functors_host.cu: over 8 minutes).
// Without the push and pop the suppressions they bracket hold to the end of the file instead.
#undef CATCH_INTERNAL_START_WARNINGS_SUPPRESSION
#undef CATCH_INTERNAL_STOP_WARNINGS_SUPPRESSION
#define CATCH_INTERNAL_START_WARNINGS_SUPPRESSION
#define CATCH_INTERNAL_STOP_WARNINGS_SUPPRESSION
#endif
#else
#include <catch2/catch.hpp>
#endif
