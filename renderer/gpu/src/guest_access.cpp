// replay::GuestMemory as a path's guest memory access (see guest_access.h).
#include "xnt/gpu/guest_access.h"

#include "xnt/replay/guest_memory.h"

namespace xnt::gpu {

GuestMemoryAccess GuestAccessOf(replay::GuestMemory& memory) {
  replay::GuestMemory* m = &memory;
  GuestMemoryAccess a;
  a.pages.generation = [m] { return m->generation(); };
  a.pages.page_generation = [m](uint32_t p) { return m->PageGeneration(p); };
  a.pages.page_data = [m](uint32_t p) { return m->PageData(p); };
  a.read = [m](uint32_t address, std::span<uint8_t> out) { m->Read(address, out); };
  a.write = [m](uint32_t address, std::span<const uint8_t> in) { m->Write(address, in); };
  return a;
}

}  // namespace xnt::gpu
