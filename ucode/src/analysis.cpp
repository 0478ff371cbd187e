// Control-flow graph, loops, memexport flush points and resource masks.
#include "xnt/ucode/analysis.h"

#include <algorithm>
#include <deque>
#include <set>

#include "xnt/base/error.h"

namespace xnt::ucode {
namespace {

uint32_t CfDword(uint32_t i) { return (i / 2) * 3 + (i % 2); }

[[noreturn]] void Fail(uint32_t cf, const std::string& what) {
  const uint32_t dword = CfDword(cf);
  throw Error("microcode dword " + std::to_string(dword) + " (CF " + std::to_string(cf) + "): " +
                  what,
              uint64_t(dword) * 4);
}

bool IsTransfer(CfOpcode op) {
  return op == CfOpcode::kCondJmp || op == CfOpcode::kCondCall || op == CfOpcode::kReturn ||
         op == CfOpcode::kLoopStart || op == CfOpcode::kLoopEnd || IsExecEnd(op);
}

class Analyzer {
 public:
  explicit Analyzer(const Shader& s) : s_(s) {}

  Analysis Run() {
    // Trailing all-zero pad nops are not part of the program.
    count_ = uint32_t(s_.cf.size());
    while (count_ > 0 && s_.cf[count_ - 1].opcode == CfOpcode::kNop &&
           EncodeCf(s_.cf[count_ - 1]) == 0) {
      --count_;
    }
    if (count_ == 0) Fail(0, "no control-flow instructions");
    Blocks();
    Loops();
    Resources();
    return std::move(a_);
  }

 private:
  void Blocks() {
    std::set<uint32_t> leaders = {0};
    for (uint32_t i = 0; i < count_; ++i) {
      const CfInstruction& cf = s_.cf[i];
      if (cf.opcode == CfOpcode::kCondJmp || cf.opcode == CfOpcode::kCondCall ||
          cf.opcode == CfOpcode::kLoopStart || cf.opcode == CfOpcode::kLoopEnd) {
        if (cf.address >= count_) Fail(i, "target L" + std::to_string(cf.address) + " is out of range");
        leaders.insert(cf.address);
      }
      if (IsTransfer(cf.opcode) && i + 1 < count_) leaders.insert(i + 1);
    }
    a_.cf_block.assign(count_, 0);
    std::vector<uint32_t> starts(leaders.begin(), leaders.end());
    for (size_t b = 0; b < starts.size(); ++b) {
      BasicBlock block;
      block.first_cf = starts[b];
      block.last_cf = b + 1 < starts.size() ? starts[b + 1] - 1 : count_ - 1;
      for (uint32_t i = block.first_cf; i <= block.last_cf; ++i) a_.cf_block[i] = uint32_t(b);
      a_.blocks.push_back(block);
    }
    std::vector<bool> falls_off(a_.blocks.size(), false);
    for (size_t bi = 0; bi < a_.blocks.size(); ++bi) {
      BasicBlock& block = a_.blocks[bi];
      const uint32_t e = block.last_cf;
      const CfInstruction& cf = s_.cf[e];
      std::vector<uint32_t> succ_cf;
      bool falls = true;
      if (IsExecEnd(cf.opcode)) {
        block.is_exit = true;
        falls = false;
      } else if (cf.opcode == CfOpcode::kReturn) {
        block.is_return = true;
        falls = false;
      } else if (cf.opcode == CfOpcode::kCondJmp) {
        succ_cf.push_back(cf.address);
        falls = !cf.is_unconditional;
      } else if (cf.opcode == CfOpcode::kCondCall || cf.opcode == CfOpcode::kLoopStart ||
                 cf.opcode == CfOpcode::kLoopEnd) {
        succ_cf.push_back(cf.address);
      }
      if (falls) succ_cf.push_back(e + 1);
      for (uint32_t t : succ_cf) {
        if (t >= count_) {
          falls_off[bi] = true;  // runs past the last CF; an error only if reachable
          continue;
        }
        const uint32_t b = a_.cf_block[t];
        if (std::find(block.successors.begin(), block.successors.end(), b) == block.successors.end()) {
          block.successors.push_back(b);
        }
      }
    }
    // Reachability from the entry; a reachable block that runs off the end, or no reachable exit,
    // is runaway control flow.
    std::vector<bool> seen(a_.blocks.size(), false);
    std::deque<uint32_t> work = {0};
    seen[0] = true;
    bool exit = false;
    while (!work.empty()) {
      const uint32_t b = work.front();
      work.pop_front();
      const BasicBlock& block = a_.blocks[b];
      if (block.is_exit) exit = true;
      if (falls_off[b]) {
        Fail(block.last_cf, "control flow runs past the last CF instruction without an exece");
      }
      for (uint32_t s : block.successors) {
        if (!seen[s]) {
          seen[s] = true;
          work.push_back(s);
        }
      }
    }
    if (!exit) Fail(0, "runaway control flow: no exece is reachable from the entry");
    for (uint32_t b = 0; b < a_.blocks.size(); ++b) {
      for (uint32_t s : a_.blocks[b].successors) a_.blocks[s].predecessors.push_back(b);
    }
  }

  void Loops() {
    std::vector<uint32_t> stack;
    for (uint32_t i = 0; i < count_; ++i) {
      const CfInstruction& cf = s_.cf[i];
      if (cf.opcode == CfOpcode::kLoopStart) {
        if (cf.address <= i) {
          Fail(i, "loop_start skip target L" + std::to_string(cf.address) + " is not after it");
        }
        stack.push_back(i);
      } else if (cf.opcode == CfOpcode::kLoopEnd) {
        if (stack.empty()) Fail(i, "endloop without a matching loop_start");
        const uint32_t start = stack.back();
        stack.pop_back();
        if (cf.address <= start || cf.address > i) {
          Fail(i, "endloop body target L" + std::to_string(cf.address) +
                      " is not inside its loop (loop_start at CF " + std::to_string(start) + ")");
        }
        if (cf.loop_id != s_.cf[start].loop_id) {
          Fail(i, "endloop uses i" + std::to_string(cf.loop_id) + " but its loop_start uses i" +
                      std::to_string(s_.cf[start].loop_id));
        }
        Loop loop;
        loop.start_cf = start;
        loop.end_cf = i;
        loop.loop_constant = cf.loop_id;
        loop.body_cf = cf.address;
        loop.skip_cf = s_.cf[start].address;
        loop.depth = uint32_t(stack.size());
        for (uint32_t j = start + 1; j < i; ++j) {
          const CfInstruction& t = s_.cf[j];
          if (t.opcode != CfOpcode::kCondJmp && t.opcode != CfOpcode::kCondCall) continue;
          if (t.address == i && t.opcode == CfOpcode::kCondJmp) {
            loop.continue_cfs.push_back(j);
          } else if (t.address <= start || t.address > i) {
            loop.break_cfs.push_back(j);
          }
        }
        a_.loops.push_back(loop);
      }
    }
    if (!stack.empty()) Fail(stack.back(), "loop_start without a matching endloop");
  }

  void ReadTemp(uint32_t index, bool relative) {
    if (relative) {
      a_.uses_relative_temps = true;
    }
    Touch(index);
    a_.temps_read |= uint64_t(1) << index;
    if (s_.type == ShaderType::kPixel && !relative && index < 16 &&
        !(written_before_ & (uint64_t(1) << index))) {
      a_.ps_input_mask |= 1u << index;
    }
  }
  void WriteTemp(uint32_t index) {
    Touch(index);
    a_.temps_written |= uint64_t(1) << index;
    written_before_ |= uint64_t(1) << index;
  }
  void Touch(uint32_t index) {
    a_.any_temp = true;
    a_.max_temp = std::max(a_.max_temp, index);
  }
  void ReadOperand(const Operand& op) {
    if (op.is_temp) {
      ReadTemp(op.index, op.relative != RelativeMode::kNone);
    } else if (op.relative != RelativeMode::kNone) {
      a_.uses_relative_constants = true;
    } else {
      a_.float_constants[op.index / 64] |= uint64_t(1) << (op.index % 64);
    }
    if (op.relative == RelativeMode::kA0) a_.uses_a0 = true;
  }

  void Export(const AluInstruction& alu, uint32_t mask) {
    const uint32_t r = alu.vector_dest;
    if (r == kExportAddress || (r >= kExportData0 && r < kExportData0 + 5)) {
      a_.uses_memexport = true;
      if (r != kExportAddress) a_.memexport_data_mask |= 1u << (r - kExportData0);
      return;
    }
    if (s_.type == ShaderType::kVertex) {
      if (r < 16) {
        if (mask) a_.interpolator_mask |= 1u << r;
        a_.interpolator_components[r] |= mask;
      } else if (r == kExportPosition) {
        a_.position_mask |= mask;
      } else if (r == kExportPointSize) {
        a_.point_size_mask |= mask;
      }
    } else {
      if (r < 4 && mask) a_.color_mask |= 1u << r;
      if (r == kExportDepth && mask) a_.writes_depth = true;
    }
  }

  void Alu(const AluInstruction& alu, uint32_t cf, uint32_t slot) {
    if (alu.is_predicated) a_.uses_predicate = true;
    const bool vector_active = alu.vector_write_mask || alu.export_data ||
                               VectorOpChangesState(alu.vector_op);
    if (vector_active) {
      for (uint32_t i = 0; i < VectorOpOperandCount(alu.vector_op); ++i) {
        ReadOperand(alu.VectorOperand(i));
      }
    }
    if (alu.scalar_op != ScalarOp::kRetainPrev) {
      for (const Operand& op : alu.ScalarOperands()) ReadOperand(op);
    }
    const VectorOp v = alu.vector_op;
    const ScalarOp s = alu.scalar_op;
    const bool vkill = v >= VectorOp::kKillEq && v <= VectorOp::kKillNe;
    const bool skill = s >= ScalarOp::kKillsEq && s <= ScalarOp::kKillsOne;
    if (vkill || skill) {
      a_.kills_pixels = true;
      a_.flush_points.push_back({FlushKind::kKill, cf, slot});
    }
    if ((v >= VectorOp::kSetpEqPush && v <= VectorOp::kSetpGePush) ||
        (s >= ScalarOp::kSetpEq && s <= ScalarOp::kSetpRstr)) {
      a_.uses_predicate = true;
    }
    if (v == VectorOp::kMaxA || s == ScalarOp::kMaxAs || s == ScalarOp::kMaxAsf) a_.uses_a0 = true;
    if (alu.export_data) {
      Export(alu, alu.vector_write_mask | alu.scalar_write_mask | alu.Constant0Mask());
    } else {
      if (alu.vector_write_mask) {
        if (alu.vector_dest_rel) a_.uses_relative_temps = true;
        WriteTemp(alu.vector_dest);
      }
      if (alu.scalar_write_mask) {
        if (alu.scalar_dest_rel) a_.uses_relative_temps = true;
        WriteTemp(alu.scalar_dest);
      }
    }
  }

  void Fetch(const FetchInstruction& f) {
    if (f.is_predicated) a_.uses_predicate = true;
    ReadTemp(f.src_reg, f.src_rel);
    if (f.IsVertex()) {
      const uint32_t k = f.VertexFetchConstant();
      a_.vertex_fetch_constants[k / 32] |= 1u << (k % 32);
    } else {
      a_.texture_fetch_constants |= 1u << f.const_index;
    }
    if (f.HasDestination() && f.DestWriteMask()) {
      if (f.dst_rel) a_.uses_relative_temps = true;
      WriteTemp(f.dst_reg);
    }
  }

  void Resources() {
    for (uint32_t i = 0; i < count_; ++i) {
      const CfInstruction& cf = s_.cf[i];
      if (IsCondExecBool(cf.opcode) ||
          ((cf.opcode == CfOpcode::kCondCall || cf.opcode == CfOpcode::kCondJmp) &&
           !cf.is_unconditional && !cf.is_predicated)) {
        const uint32_t b = cf.CondBoolAddress();
        a_.bool_constants_mask[b / 32] |= 1u << (b % 32);
      }
      if (IsCondExecPred(cf.opcode) || (cf.opcode == CfOpcode::kLoopEnd && cf.is_predicated_break) ||
          ((cf.opcode == CfOpcode::kCondCall || cf.opcode == CfOpcode::kCondJmp) &&
           !cf.is_unconditional && cf.is_predicated)) {
        a_.uses_predicate = true;
      }
      if (cf.opcode == CfOpcode::kLoopStart || cf.opcode == CfOpcode::kLoopEnd) {
        a_.loop_constants |= 1u << cf.loop_id;
      }
      if (cf.opcode == CfOpcode::kAlloc) a_.flush_points.push_back({FlushKind::kAlloc, i, 0});
      if (!IsExec(cf.opcode)) continue;
      for (uint32_t k = 0; k < cf.count; ++k) {
        const uint32_t slot = cf.address + k;
        const Instruction& ins = s_.AtSlot(slot);
        if (cf.IsSerialized(k)) a_.flush_points.push_back({FlushKind::kSerialize, i, slot});
        if (ins.kind == SlotKind::kAlu) Alu(ins.alu, i, slot);
        if (ins.kind == SlotKind::kFetch) Fetch(ins.fetch);
      }
      if (IsExecEnd(cf.opcode)) a_.flush_points.push_back({FlushKind::kEnd, i, 0});
    }
  }

  const Shader& s_;
  uint32_t count_ = 0;
  uint64_t written_before_ = 0;
  Analysis a_;
};

}  // namespace

Analysis Analyze(const Shader& shader) { return Analyzer(shader).Run(); }

std::string FlushKindName(FlushKind kind) {
  switch (kind) {
    case FlushKind::kAlloc: return "alloc";
    case FlushKind::kSerialize: return "serialize";
    case FlushKind::kKill: return "kill";
    case FlushKind::kEnd: return "end";
  }
  return "?";
}

}  // namespace xnt::ucode
