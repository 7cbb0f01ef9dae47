// Copyright (c) 2026 The ew authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// The one-definition-rule test: two translation units make the same ew call, one built with EW_DEBUG_SYNC
// and one without, and each reports which behaviour it got. Test code only.

namespace ew_odr {

/// What one unit's `ew::elementwise(ew::relu<float>{}, ...)` did: debug (checked its pointers with CUDA /
/// synchronized) or default.
enum class behaviour { default_config, debug_config, unclear };

/// The unit built without EW_DEBUG_SYNC.
behaviour probe_default();
/// The unit built with EW_DEBUG_SYNC.
behaviour probe_debug();

}  // namespace ew_odr
