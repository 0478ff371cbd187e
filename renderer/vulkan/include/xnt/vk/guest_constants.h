// The guest constants of a draw placed in the ring (shader_interface.h: three uniform buffers,
// vertex floats, pixel floats, fetch / bool / loop, each bound at its own offset).
//
// Per part, only the rows the draw's shaders read (XeConstantReads) are written, and a part is
// not written at all while those rows hold what the last copy in the same submission holds: its
// offset is bound again. Xenia's command processors do the same with dirty bits set by register
// writes (d3d12_command_processor.cc WriteRegister / UpdateBindings: a float constant buffer is
// re-uploaded only when a constant the bound shader uses was written); comparing the rows with
// the last copy gives the same answer without hooking the register writes, for 16 bytes per row
// read.
//
// A part's rows [first, end) are bound with a range of the next power of two of `end` rows (a
// range class, so a draw that reads fewer rows than the last one can bind the same copy), and
// the binding's offset is put first x 16 bytes
// before the rows it wrote, over earlier data of the same submission (other draws' ring data,
// only ever written by the host or read by copies before this draw), which the shaders never
// read. The allocation runs from the first row to the range's end, so no bound range reaches
// ring space a later command may write. A capture-shaped frame's draw thus writes 32 bytes of
// guest constants and binds 16-byte ranges, where the whole block was 9,120 bytes.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "xnt/gpu/register_values.h"
#include "xnt/vk/command_stream.h"
#include "xnt/vk/translator/shader_interface.h"

namespace xnt::vk {

// Where a draw's three parts are: ring offsets and range classes, in XeConstantPart order.
struct GuestConstantBinding {
  std::array<uint32_t, kXeConstantPartCount> offsets{};
  std::array<uint8_t, kXeConstantPartCount> ranges{};
};

class GuestConstantUploads {
 public:
  // Range classes: 1, 2, 4 ... 256 rows (at most the part's rows).
  static constexpr uint32_t kRangeClasses = 9;
  static uint64_t RangeBytes(uint32_t part, uint32_t range_class) {
    return uint64_t(std::min(1u << range_class, kXeConstantParts[part].rows)) * 16;
  }
  // The smallest class whose range holds rows [0, end).
  static uint32_t RangeClass(uint32_t end) {
    uint32_t k = 0;
    while ((1u << k) < end) ++k;
    return k;
  }

  using Allocate = std::function<CommandStream::Allocation(uint64_t size, uint64_t alignment)>;
  // `alignment`: of a uniform buffer's offset.
  explicit GuestConstantUploads(uint64_t alignment);

  // The three parts' place for a draw of submission `submission` reading `reads`. `allocate`
  // may flush (start another submission): the caller then places the draw's data again.
  GuestConstantBinding Place(gpu::RegisterValues regs, const XeConstantReads& reads,
                             uint64_t submission, const Allocate& allocate);

  uint64_t bytes_written() const { return bytes_written_; }
  uint64_t parts_reused() const { return parts_reused_; }

  // Rows [first, end) of part `part` as the shaders see them, from the register file (zero past
  // its end): `out` gets (end - first) x 4 dwords.
  static void ReadRows(gpu::RegisterValues regs, uint32_t part, uint32_t first, uint32_t end,
                       uint32_t* out);

 private:
  struct Copy {
    uint64_t submission = UINT64_MAX;
    uint32_t offset = 0;
    uint8_t range = 0;
    uint32_t first = 0, end = 0;
    std::vector<uint32_t> dwords;  // rows [first, end)
  };
  void PlacePart(uint32_t part, uint32_t first, uint32_t end, uint64_t submission,
                 const Allocate& allocate);

  uint64_t alignment_;
  std::array<Copy, kXeConstantPartCount> last_;
  std::vector<uint32_t> rows_;  // the draw's rows of one part
  uint64_t bytes_written_ = 0;
  uint64_t parts_reused_ = 0;
};

}  // namespace xnt::vk
