// The display controller's gamma ramps: what scan-out does to the front buffer on its way to the
// screen. Two ramps exist (the AMD M56 display controller's, which the Xenos carries; Xenia
// gpu/command_processor.cc WriteRegister, gpu/shaders/apply_gamma_table.xesli and
// apply_gamma_pwl.xesli):
//  - the 256-entry table, DC_LUT_30_COLOR entries of 10 bits per channel (blue 9:0, green 19:10,
//    red 29:20), indexed by an 8-bit channel value;
//  - the piecewise-linear ramp, 128 DC_LUT_PWL_DATA entries per channel (base 15:0, delta 31:16,
//    bits 5:0 of each hardwired to zero), indexed by a 10-bit channel value's top 7 bits:
//    out = (base + (value & 7) * delta / 8) / (64 * 1023), clamped to 1.
// The guest writes them through register ports (DC_LUT_RW_MODE selects table or PWL,
// DC_LUT_RW_INDEX the entry, DC_LUT_WRITE_EN_MASK the channels; DC_LUT_SEQ_COLOR and
// DC_LUT_PWL_DATA take red, green, blue in turn and advance the index after blue;
// DC_LUT_30_COLOR writes a whole table entry), and a capture may also carry a ramp record.
// Which ramp scan-out uses is DC_LUTA_CONTROL's; Direct3D sets up the table for an 8:8:8:8
// front buffer and the PWL ramp for 2:10:10:10, which is the choice made here (as Xenia makes it).
// Until the guest writes them, both hold the linear ramps Direct3D sets at start-up.
#pragma once

#include <array>
#include <cstdint>

#include "xnt/format/records.h"
#include "xnt/replay/register_file.h"

namespace xnt::replay {

class DisplayGamma {
 public:
  DisplayGamma();

  // A ramp record (Xenia's trace layout: 256 table entries, then 128 x 3 PWL entries, entry-major
  // in red, green, blue order). Entries a record lacks keep their values.
  void Load(const format::GammaRamp& ramp);
  // After the register file took `value` at `index`: the port's effect (an entry written, the
  // component counter, DC_LUT_RW_INDEX advanced in `regs`). Other registers are ignored.
  void OnRegisterWrite(uint32_t index, RegisterFile& regs);

  // Channel c (0 red, 1 green, 2 blue) of an 8-bit value through the table, 0..1023.
  uint32_t Table(uint32_t c, uint32_t value8) const;
  // Channel c of a 10-bit value through the PWL ramp, 0..1.
  float Pwl(uint32_t c, uint32_t value10) const;
  // Both ramps are the start-up linear ones, under which an 8-bit table lookup gives back its
  // input once rounded to 8 bits.
  bool table_is_identity() const { return table_identity_; }

  // The ramps as a record (the trace layout Load reads), and whether they are still the start-up
  // ones with the port's component counter at red (a slice writes them at its cut otherwise).
  format::GammaRamp ToRecord() const;
  bool at_start_up() const;

  const std::array<uint32_t, 256>& table() const { return table_; }
  const std::array<std::array<uint32_t, 3>, 128>& pwl() const { return pwl_; }

 private:
  void UpdateIdentity();

  std::array<uint32_t, 256> table_{};
  std::array<std::array<uint32_t, 3>, 128> pwl_{};
  uint32_t rw_component_ = 0;
  bool table_identity_ = true;
};

}  // namespace xnt::replay
