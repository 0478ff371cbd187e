// Follows the register writes and XE_SWAP packets of a stream far enough to describe a swap: the
// front buffer address and size XE_SWAP carries (Xenia xboxkrnl_video.cc VdSwap: "SWAP", address,
// width, height) and the texture format of fetch constant 0, which D3D's VdSwap writes right
// before it to describe the front buffer (as in the traces Xenia records; dword 1 bits 5:0 are
// the TextureFormat).
#pragma once

#include <cstdint>
#include <span>

#include "xnt/xenos/pm4.h"

namespace xnt::capture {

class SwapTracker {
 public:
  // k_8_8_8_8 in Xenia's TextureFormat enum (xenos.h).
  static constexpr uint32_t kDefaultFormat = 6;

  void OnRegister(uint32_t index, uint32_t value) {
    if (index == kFetch0Dword1) {
      format_ = value & 0x3Fu;
      format_known_ = true;
    }
  }

  void OnPacket(std::span<const uint32_t> d) {
    if (d.empty() || d[0] == 0) return;
    const uint32_t header = d[0];
    switch (xenos::GetPacketType(header)) {
      case xenos::PacketType::kType0: {
        const auto h = xenos::DecodeType0(header);
        for (size_t i = 1; i < d.size() && i <= h.count; ++i) {
          OnRegister(h.one_register ? h.base_index : h.base_index + uint32_t(i - 1), d[i]);
        }
        break;
      }
      case xenos::PacketType::kType1: {
        const auto h = xenos::DecodeType1(header);
        if (d.size() > 1) OnRegister(h.reg_a, d[1]);
        if (d.size() > 2) OnRegister(h.reg_b, d[2]);
        break;
      }
      case xenos::PacketType::kType2:
        break;
      case xenos::PacketType::kType3: {
        const auto h = xenos::DecodeType3(header);
        const auto op = xenos::Opcode(h.opcode);
        if (op == xenos::Opcode::kSetConstant && d.size() > 2) {
          const uint32_t type = (d[1] >> 16) & 0xFFu;
          if (type <= uint32_t(xenos::ConstantType::kRegisters)) {
            const uint32_t base =
                xenos::ConstantTypeBase(xenos::ConstantType(type)) + (d[1] & 0x7FFu);
            for (size_t i = 2; i < d.size(); ++i) OnRegister(base + uint32_t(i - 2), d[i]);
          }
        } else if ((op == xenos::Opcode::kSetConstant2 ||
                    op == xenos::Opcode::kSetShaderConstants) &&
                   d.size() > 2) {
          const uint32_t base = d[1] & 0xFFFFu;
          for (size_t i = 2; i < d.size(); ++i) OnRegister(base + uint32_t(i - 2), d[i]);
        } else if (op == xenos::Opcode::kXeSwap && d.size() >= 1 + xenos::kSwapMinPayloadDwords) {
          have_swap_ = true;
          address_ = xenos::CpuToGpu(d[2]);
          width_ = d[3];
          height_ = d[4];
        }
        break;
      }
    }
  }

  bool have_swap() const { return have_swap_; }
  void ResetSwap() { have_swap_ = false; }
  uint32_t front_buffer_address() const { return address_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  uint32_t front_buffer_format() const { return format_known_ ? format_ : kDefaultFormat; }
  bool format_known() const { return format_known_; }

 private:
  // Texture fetch constant 0, dword 1 (fetch constants start at 0x4800).
  static constexpr uint32_t kFetch0Dword1 =
      xenos::ConstantTypeBase(xenos::ConstantType::kFetch) + 1;
  bool have_swap_ = false;
  bool format_known_ = false;
  uint32_t address_ = 0, width_ = 0, height_ = 0, format_ = kDefaultFormat;
};

}  // namespace xnt::capture
