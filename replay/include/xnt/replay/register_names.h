// Register names and decoded fields, for people (xenotrace dump) and tests.
// Names: Xenia register_table.inc for control registers; the constant areas get generated names in
// Xenia's style (SHADER_CONSTANT_012_Y, SHADER_CONSTANT_FETCH_05_3, SHADER_CONSTANT_BOOL_032_063,
// SHADER_CONSTANT_LOOP_07, SHADER_CONSTANT_FLUSH_FETCH_0); anything else is UNKNOWN_xxxx.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace xnt::replay {

// Valid for the life of the program. Indices past the register file give "OUT_OF_RANGE".
std::string_view RegisterName(uint32_t index);
// Reverse lookup (exact, case-sensitive).
std::optional<uint32_t> FindRegister(std::string_view name);
// True for registers register_table.inc names (not generated, not UNKNOWN_).
bool IsNamedRegister(uint32_t index);
// Registers Xenia types as kFloat (viewport, blend/fog colour, ALU constants, ...).
bool IsFloatRegister(uint32_t index);

struct RegisterField {
  std::string_view name;
  int64_t value;
  std::string_view text;  // enum spelling when the field is an enum, else empty
};

struct DecodedRegister {
  std::array<RegisterField, 20> fields;  // only the first `count` are meaningful
  uint32_t count = 0;
  void Add(std::string_view name, int64_t value, std::string_view text = {}) {
    if (count < fields.size()) fields[count++] = RegisterField{name, value, text};
  }
};

// Fills `out` with the fields of registers that have a decoder (RB_SURFACE_INFO, RB_COLOR_INFO,
// RB_DEPTHCONTROL, VGT_DRAW_INITIATOR, loop constants, ...). Returns false for the others.
bool DecodeRegisterFields(uint32_t index, uint32_t value, DecodedRegister& out);

}  // namespace xnt::replay
