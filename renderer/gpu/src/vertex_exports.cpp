// The vertex shader's exports of a draw that rasterizes nothing (vertex_exports.h).
#include "xnt/gpu/vertex_exports.h"

#include <algorithm>
#include <vector>

#include "xnt/gpu/index_buffer.h"
#include "xnt/gpu/stage_constants.h"
#include "xnt/replay/register_file.h"
#include "xnt/ucode/memexport.h"
#include "xnt/ucode/shader_cache.h"
#include "xnt/xenos/registers.h"

namespace xnt::gpu {

VertexExportRun RunVertexShaderExports(
    const replay::DrawCall& draw, const PrimitiveDraw& prim, replay::GuestMemory& memory,
    const std::function<void(ucode::InterpreterCallbacks&)>& bind_textures) {
  VertexExportRun run;
  if (!draw.vertex_shader || !draw.registers) {
    run.note = "no vertex shader loaded";
    return run;
  }
  if (!draw.vertex_shader->uses_memexport) {
    run.note = "the vertex shader does not export";
    return run;
  }
  std::shared_ptr<const ucode::DecodedShader> decoded = draw.vertex_shader->decoded;
  if (!decoded) {
    ucode::ShaderCache local;
    decoded = local.Get(draw.vertex_shader->hash, ucode::ShaderType::kVertex,
                        draw.vertex_shader->dwords);
  }
  if (!decoded->decodes()) {
    run.note = "the vertex shader does not decode: " + decoded->decode_error;
    return run;
  }
  // The vertex indices the sequencer loads into r0.x, in draw order.
  std::vector<uint32_t> indices;
  if (!ReadVertexIndices(prim, indices)) {
    run.note = "index buffer shorter than the draw";
    return run;
  }

  const replay::RegisterFile& regs = *draw.registers;
  const ucode::InterpreterConstants k = StageConstants(regs, false);
  ucode::InterpreterCallbacks cb;
  cb.read_memory = [&memory](uint32_t address, uint32_t& word) {
    if (!replay::GuestMemory::InRange(address, 4)) return false;
    word = memory.LoadLE32(address);
    return true;
  };
  if (bind_textures) bind_textures(cb);
  cb.write_memory = [&memory, &run](uint32_t address, uint32_t value, uint32_t mask) {
    // Outside guest memory: dropped (the interpreter counts it), never written.
    if (!replay::GuestMemory::InRange(address, 4)) return false;
    const uint32_t old = mask == ~0u ? 0u : memory.LoadLE32(address);
    memory.StoreLE32(address, (old & ~mask) | (value & mask));
    run.lo = std::min(run.lo, address);
    run.hi = std::max(run.hi, address + 4);
    return true;
  };
  const ucode::Interpreter interpreter(decoded->shader);
  for (uint32_t index : indices) {
    ucode::ShaderInputs in;
    in.vertex_index = float(index);
    const ucode::ShaderResult r = interpreter.Run(k, in, cb);
    ++run.vertices;
    run.elements += r.memexport_elements;
    run.dropped_outside_memory += r.memexport_dropped_outside_memory;
    if (r.step_limit_hit) {
      run.note = "vertex shader control flow ran away (step limit)";
      break;
    }
  }
  return run;
}

SkippedDrawExports ExportSkippedDraw(const replay::DrawCall& draw, const PrimitiveDraw& prim,
                                     replay::GuestMemory& memory, bool vertex_fetches_textures,
                                     const std::string& path) {
  SkippedDrawExports out;
  if (draw.vertex_shader && draw.vertex_shader->uses_memexport) {
    if (vertex_fetches_textures) {
      out.notes.push_back("memexport of a skipped draw: vertex texture fetches read zeros on " +
                          path + " (not implemented)");
    }
    out.run = RunVertexShaderExports(draw, prim, memory);
    if (!out.run.note.empty()) out.notes.push_back("memexport of a skipped draw: " + out.run.note);
  }
  return out;
}

std::vector<MemExportRange> MemExportRanges(const replay::DrawCall& draw, bool& past_memory) {
  std::vector<MemExportRange> ranges;
  for (const replay::Shader* s : {draw.vertex_shader, draw.pixel_shader}) {
    if (!s || !s->uses_memexport) continue;
    for (const replay::MemExportCall& m : replay::FindMemExportStreams(draw, *s)) {
      const uint64_t size = m.ByteSize();
      if (!size) continue;
      if (m.stream.base_address_bytes() + size > replay::GuestMemory::kSize) past_memory = true;
      ranges.push_back({m.stream.base_address_bytes(), size});
      // Element addresses are 32-bit sums in the interpreter and the GLSL alike: a stream that
      // runs past 4 GiB continues at address 0 (ByteSize stops at 4 GiB), so that part is
      // mirrored and read back too. Not known from hardware; the paths agree.
      const uint64_t whole = uint64_t(m.stream.index_count) *
                             ucode::memexport::ElementBytes(uint32_t(m.stream.format));
      const uint64_t end = uint64_t(m.stream.base_address_bytes()) + whole;
      if (end > (uint64_t(1) << 32)) ranges.push_back({0, end - (uint64_t(1) << 32)});
    }
  }
  return ranges;
}

}  // namespace xnt::gpu
