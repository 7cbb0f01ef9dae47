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
#else
#include <catch2/catch.hpp>
#endif
