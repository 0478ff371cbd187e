#include "xnt/replay/register_file.h"

#include <bit>

namespace xnt::replay {

// Float registers (viewport, blend constant, ALU constants) hold IEEE-754 bits.
float RegisterFile::GetFloat(uint32_t index) const { return std::bit_cast<float>((*this)[index]); }

}  // namespace xnt::replay
