#include "xtr_fixture.h"

#include <snappy.h>

#include <cstring>
#include <string>

namespace xnt::test {

namespace {

struct Bytes {
  std::vector<uint8_t> v;
  void LE(uint32_t x) {
    for (int i = 0; i < 4; ++i) v.push_back(uint8_t(x >> (8 * i)));
  }
  void BE(uint32_t x) {
    for (int i = 3; i >= 0; --i) v.push_back(uint8_t(x >> (8 * i)));
  }
  void Raw(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    v.insert(v.end(), b, b + n);
  }
  // PacketStart (4): base_ptr, count, then count big-endian dwords.
  void Packet(uint32_t address, std::initializer_list<uint32_t> dwords, bool end = true) {
    LE(4);
    LE(address);
    LE(uint32_t(dwords.size()));
    for (uint32_t d : dwords) BE(d);
    if (end) LE(5);  // PacketEnd
  }
  // MemoryRead (6) / MemoryWrite (7): base_ptr, encoding, encoded_length, decoded_length, bytes.
  void Memory(uint32_t type, uint32_t address, const std::vector<uint8_t>& data, bool snappy) {
    LE(type);
    LE(address);
    if (snappy) {
      std::string c;
      snappy::Compress(reinterpret_cast<const char*>(data.data()), data.size(), &c);
      LE(1);
      LE(uint32_t(c.size()));
      LE(uint32_t(data.size()));
      Raw(c.data(), c.size());
    } else {
      LE(0);
      LE(uint32_t(data.size()));
      LE(uint32_t(data.size()));
      Raw(data.data(), data.size());
    }
  }
};

}  // namespace

std::vector<uint8_t> MakeHandmadeXtr(bool legacy, bool with_edram) {
  using F = HandmadeXtrFacts;
  Bytes b;
  // TraceHeader: version, 40 ASCII hex characters (no NUL), title id.
  b.LE(1);
  const char sha[] = "0123456789abcdef0123456789abcdef01234567";
  b.Raw(sha, 40);
  b.LE(F::kTitleId);

  if (!legacy) {
    // Registers (10): first, count, execute_callbacks + 3 pad, encoding none, length, values.
    b.LE(10);
    b.LE(0x2000);
    b.LE(3);
    b.LE(0);
    b.LE(0);
    b.LE(12);
    b.LE(0x140);
    b.LE(0x0);
    b.LE(0x7FF);
    // GammaRamp (11): rw_component 1 + pad, snappy, 256 table + 384 PWL entries.
    std::vector<uint8_t> ramp;
    for (uint32_t i = 0; i < 256 + 384; ++i) {
      const uint32_t v = i * 0x00100401u;
      for (int k = 0; k < 4; ++k) ramp.push_back(uint8_t(v >> (8 * k)));
    }
    std::string c;
    snappy::Compress(reinterpret_cast<const char*>(ramp.data()), ramp.size(), &c);
    b.LE(11);
    b.LE(1);
    b.LE(1);
    b.LE(uint32_t(c.size()));
    b.Raw(c.data(), c.size());
  }

  // PrimaryBufferStart (0): base_ptr, count 0.
  b.LE(0);
  b.LE(F::kRingAddress);
  b.LE(0);
  // type 0: RB_SURFACE_INFO (0x2000) = 320.
  b.Packet(F::kRingAddress, {0x00002000u, 320u});
  b.Memory(6, F::kReadAddress, std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                                                    15, 16},
           false);
  // INDIRECT_BUFFER (type 3, opcode 0x3F, 2 payload dwords) recorded the way Xenia's writer does:
  // header + pointer only, with the IB nested before its PacketEnd.
  b.Packet(F::kRingAddress + 8, {0xC0013F00u, F::kIbAddress}, false);
  b.LE(2);  // IndirectBufferStart
  b.LE(F::kIbAddress);
  b.LE(0);
  b.Packet(F::kIbAddress, {0x00002001u, 0u});  // RB_COLOR_INFO = 0
  std::vector<uint8_t> texture(F::kIbReadBytes);
  for (size_t i = 0; i < texture.size(); ++i) texture[i] = uint8_t(i * 7 + (i >> 8));
  b.Memory(6, F::kIbReadAddress, texture, true);
  // DRAW_INDX_2 (0x36), auto indices: triangle list of 3.
  b.Packet(F::kIbAddress + 8, {0xC0013600u, 0x00030084u, 0u}, true);
  b.LE(3);  // IndirectBufferEnd
  b.LE(5);  // the INDIRECT_BUFFER packet's PacketEnd
  // Texture fetch constant 0 (0x4800, 6 dwords) and XE_SWAP: D3D's VdSwap pair.
  b.Packet(F::kRingAddress + 20, {0x00054800u, 0x82824802u, 0x00200086u, 0x001DE13Fu,
                                  0x01000D10u, 0u, 0x200u});
  b.Packet(F::kRingAddress + 48,
           {0xC0036400u, 0x53574150u, F::kFrontBuffer, 320u, 240u});
  // Event (9 today, 8 before Nov 2019): swap.
  b.LE(legacy ? 8 : 9);
  b.LE(0);
  b.Memory(7, F::kFrontBuffer, std::vector<uint8_t>{0xAA, 0xBB, 0xCC, 0xDD, 1, 2, 3, 4}, false);
  if (!legacy && with_edram) {
    // EdramSnapshot (8): encoding snappy, length, 10 MiB.
    std::vector<uint8_t> edram(10u << 20, 0);
    edram[F::kEdramMarkerOffset] = 0x5A;
    std::string c;
    snappy::Compress(reinterpret_cast<const char*>(edram.data()), edram.size(), &c);
    b.LE(8);
    b.LE(1);
    b.LE(uint32_t(c.size()));
    b.Raw(c.data(), c.size());
  }
  b.LE(1);  // PrimaryBufferEnd
  return b.v;
}

}  // namespace xnt::test
