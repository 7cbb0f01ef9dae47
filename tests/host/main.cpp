// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
// Catch2 main for the host tests, compiled once by the host compiler.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
