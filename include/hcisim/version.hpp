// Library version, printed in every report.
#pragma once

namespace hcisim {
inline constexpr const char* kVersion = "0.1.0";
}  // namespace hcisim
