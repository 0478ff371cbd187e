// The 8 real XDK-compiled shaders: container loading, disassembly identical to fxc's own listing,
// exact assembler round trip, analysis results.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"
#include "xnt/base/error.h"
#include "xnt/ucode/analysis.h"
#include "xnt/ucode/assembler.h"
#include "xnt/ucode/container.h"
#include "xnt/ucode/disasm.h"
#include "prerequisite.h"

namespace xnt::ucode {
namespace {

using test::CorpusDir;
using test::CorpusShaders;

// Every test reads the corpus, so a missing one skips (or fails, in CI) them all in one place.
class UcodeCorpus : public ::testing::Test {
 protected:
  void SetUp() override {
    if (CorpusShaders().empty()) {
      XNT_MISSING_PREREQUISITE() << "corpus not found under " << CorpusDir();
    }
  }
};

std::vector<uint8_t> CorpusBytes(const std::string& name) {
  return test::ReadBytes(CorpusDir() / name / "container.bin");
}
ContainerFile CorpusContainer(const std::string& name) { return LoadContainer(CorpusBytes(name)); }
// fxc's own listing of the shader.
std::string CorpusListing(const std::string& name) {
  return test::ReadText(CorpusDir() / name / "disasm.txt");
}

TEST_F(UcodeCorpus, DisassemblyMatchesCompilerListing) {
  const auto names = CorpusShaders();
  ASSERT_EQ(names.size(), 8u);
  size_t total = 0, matched = 0, lines_total = 0, lines_matched = 0;
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    const auto bytes = CorpusBytes(name);
    const ContainerFile c = LoadContainer(bytes);
    const auto expected = test::ListingBody(CorpusListing(name));
    auto actual = test::Lines(Disassemble(c));
    while (!actual.empty() && actual.back().empty()) actual.pop_back();
    // Instruction lines: the indented ones.
    std::vector<std::string> ei, ai;
    for (const auto& l : expected) if (l.rfind("    ", 0) == 0) ei.push_back(l);
    for (const auto& l : actual) if (l.rfind("    ", 0) == 0) ai.push_back(l);
    total += ei.size();
    for (size_t i = 0; i < std::min(ei.size(), ai.size()); ++i) matched += ei[i] == ai[i];
    lines_total += expected.size();
    for (size_t i = 0; i < std::min(expected.size(), actual.size()); ++i) {
      lines_matched += expected[i] == actual[i];
    }
    EXPECT_EQ(actual, expected);
  }
  std::printf("corpus: %zu/%zu instruction lines identical, %zu/%zu listing lines identical\n",
              matched, total, lines_matched, lines_total);
  EXPECT_EQ(matched, total);
}

// With compiler_comments the output also matches fxc's "// Parameters:" ... "// Shader type:"
// block: everything in disasm.txt except the command-line comment and the PDB hint.
TEST_F(UcodeCorpus, CompilerCommentBlockMatches) {
  for (const auto& name : CorpusShaders()) {
    SCOPED_TRACE(name);
    const ContainerFile c = CorpusContainer(name);
    const auto all = test::Lines(CorpusListing(name));
    std::vector<std::string> expected;
    bool in = false;
    for (const auto& l : all) {
      if (l == "// Parameters:") in = true;
      if (l.rfind("// PDB hint", 0) == 0) break;
      if (in) expected.push_back(l);
    }
    while (!expected.empty() && expected.back().empty()) expected.pop_back();
    ASSERT_FALSE(expected.empty());
    const Shader shader = Decode(c.microcode, c.type);
    DisassembleOptions o;
    o.container = &c;
    o.compiler_comments = true;
    auto actual = test::Lines(Disassemble(shader, o));
    while (!actual.empty() && actual.back().empty()) actual.pop_back();
    EXPECT_EQ(actual, expected);
    EXPECT_EQ(Assemble(Disassemble(shader, o)), c.microcode);
  }
}

TEST_F(UcodeCorpus, AssembleOfDisassemblyIsBitExact) {
  for (const auto& name : CorpusShaders()) {
    SCOPED_TRACE(name);
    const ContainerFile c = CorpusContainer(name);
    const std::string text = Disassemble(c);
    ShaderType type;
    AssembledShader a = AssembleShader(text);
    EXPECT_EQ(a.type, c.type);
    EXPECT_EQ(a.microcode, c.microcode);
    // Declarations survive too.
    ASSERT_EQ(a.literals.size(), c.literals.size());
    for (size_t i = 0; i < a.literals.size(); ++i) {
      EXPECT_EQ(a.literals[i].register_index, c.literals[i].register_index);
      EXPECT_EQ(a.literals[i].value, c.literals[i].value);
    }
    ASSERT_EQ(a.vertex_fetches.size(), c.vertex_fetches.size());
    for (size_t i = 0; i < a.vertex_fetches.size(); ++i) {
      EXPECT_EQ(a.vertex_fetches[i].slot, c.vertex_fetches[i].slot);
      EXPECT_EQ(a.vertex_fetches[i].semantic.usage, c.vertex_fetches[i].semantic.usage);
    }
    (void)type;
  }
}

TEST_F(UcodeCorpus, CompilerListingAssemblesToTheContainerMicrocode) {
  // The fxc text itself (not our output) is valid assembler input.
  for (const auto& name : CorpusShaders()) {
    SCOPED_TRACE(name);
    const ContainerFile c = CorpusContainer(name);
    const std::string listing = CorpusListing(name);
    EXPECT_EQ(Assemble(listing), c.microcode);
  }
}

TEST_F(UcodeCorpus, ContainerFields) {
  const ContainerFile vs = CorpusContainer("vs20pos2tex2clr42d360");
  EXPECT_EQ(vs.type, ShaderType::kVertex);
  EXPECT_EQ(vs.target, "vs_3_0");
  EXPECT_EQ(vs.creator, "2.0.21256.0");
  ASSERT_EQ(vs.constants.size(), 1u);
  EXPECT_EQ(vs.constants[0].name, "XYWidthHeight");
  EXPECT_EQ(vs.constants[0].register_set, 2u);
  ASSERT_EQ(vs.literals.size(), 4u);
  EXPECT_EQ(vs.literals[3].register_index, 255u);
  EXPECT_EQ(vs.literals[3].value[0], -2.0f);
  EXPECT_EQ(vs.literals[3].value[3], 1.0f);
  ASSERT_EQ(vs.vertex_fetches.size(), 3u);
  EXPECT_EQ(vs.vertex_fetches[1].semantic.usage, 5u);  // texcoord
  EXPECT_EQ(vs.vertex_fetches[1].slot, 4u);
  ASSERT_EQ(vs.interpolators.size(), 2u);
  EXPECT_EQ(vs.interpolators[1].semantic.usage, 10u);  // color
  EXPECT_EQ(vs.interpolators[1].reg, 1u);
  EXPECT_EQ(vs.microcode.size(), 33u);

  const ContainerFile ps = CorpusContainer("pstex2clr4360");
  EXPECT_EQ(ps.type, ShaderType::kPixel);
  ASSERT_EQ(ps.interpolators.size(), 2u);
  EXPECT_FALSE(ps.interpolators[0].centroid);
  EXPECT_TRUE(ps.interpolators[1].centroid);
  EXPECT_EQ(ps.interpolators[0].mask, 0x3u);
}

// Every region of the blob is kept (unknown words included), so writing the loaded container
// gives the compiler's bytes back.
TEST_F(UcodeCorpus, WriteContainerIsLossless) {
  for (const auto& name : CorpusShaders()) {
    SCOPED_TRACE(name);
    const auto bytes = CorpusBytes(name);
    EXPECT_EQ(WriteContainer(LoadContainer(bytes)), bytes);
  }
}

// fxc's own listing (disasm.txt, with its `// Generated by` line) assembles to fxc's container
// byte for byte, and so does our disassembly with the compiler comment block.
TEST_F(UcodeCorpus, ListingAssemblesToTheCompilersContainer) {
  for (const auto& name : CorpusShaders()) {
    SCOPED_TRACE(name);
    const auto bytes = CorpusBytes(name);
    EXPECT_EQ(AssembleContainer(CorpusListing(name)), bytes);
    const ContainerFile c = LoadContainer(bytes);
    EXPECT_EQ(AssembleContainer("// Generated by " + c.creator + "\n" + Disassemble(c)), bytes);
  }
}

TEST_F(UcodeCorpus, TruncatedContainersAreRejected) {
  for (const auto& name : CorpusShaders()) {
    const auto bytes = CorpusBytes(name);
    for (size_t n = 0; n < bytes.size(); n += 3) {
      std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
      EXPECT_THROW(LoadContainer(cut), Error) << name << " cut at " << n;
    }
  }
}

TEST_F(UcodeCorpus, Analysis) {
  const ContainerFile vs = CorpusContainer("vs20pos2tex2clr42d360");
  const Analysis a = Analyze(Decode(vs.microcode, vs.type));
  EXPECT_EQ(a.position_mask, 0xFu);
  EXPECT_EQ(a.interpolator_mask, 0x3u);
  EXPECT_EQ(a.interpolator_components[0], 0x3u);
  EXPECT_EQ(a.max_temp, 2u);
  EXPECT_EQ(a.vertex_fetch_constants[2], 1u << 31);  // fetch constant 95
  EXPECT_EQ(a.float_constants[0], 1u);               // c0
  EXPECT_EQ(a.float_constants[3], uint64_t(1) << 63);  // c255
  ASSERT_EQ(a.blocks.size(), 1u);
  EXPECT_TRUE(a.blocks[0].is_exit);

  const ContainerFile ps = CorpusContainer("pstex2clr4360");
  const Analysis p = Analyze(Decode(ps.microcode, ps.type));
  EXPECT_EQ(p.color_mask, 1u);
  EXPECT_EQ(p.ps_input_mask, 0x3u);  // r0 (texcoord), r1 (color)
  EXPECT_EQ(p.texture_fetch_constants, 1u);
}

}  // namespace
}  // namespace xnt::ucode
