// Ownership claims kept as runs (edram_tracker.h): a frame of many draws into one target is one
// run with its draw count, while the totals and the map still see every claim.
#include <gtest/gtest.h>

#include "xnt/gpu/edram_report.h"
#include "xnt/gpu/edram_tracker.h"

namespace xnt::gpu {
namespace {

edram::Surface Target(uint32_t base, bool depth) {
  edram::Surface s;
  s.base_tiles = base;
  s.pitch_pixels = 320;  // 4 tiles a row at 1x, 32bpp
  s.is_depth = depth;
  return s;
}

const EdramTracker::Mover kNoMove = [](const edram::Transfer&, EdramLogEntry&) {};

void Draw(EdramTracker& t, std::vector<EdramUse> uses) {
  t.Use(t.BeginEvent(), uses, uses, "draw", kNoMove);
}

TEST(EdramClaims, ConsecutiveDrawsIntoOneTargetAreOneRun) {
  EdramTracker t;
  const EdramUse colour{Target(0, false), 32}, depth{Target(8, true), 32};
  for (int i = 0; i < 1000; ++i) Draw(t, {colour, depth});
  ASSERT_EQ(t.claims().size(), 2u);  // the colour run and the depth run
  EXPECT_EQ(t.claims()[0].event, 0u);
  EXPECT_EQ(t.claims()[0].last_event, 999u);
  EXPECT_EQ(t.claims()[0].count, 1000u);
  EXPECT_TRUE(t.claims()[1].owner.is_depth);
  EXPECT_EQ(t.claims()[1].count, 1000u);
  const EdramTotals totals = ComputeEdramTotals(t, EdramReportOptions{});
  EXPECT_EQ(totals.claims, 2000u);
}

TEST(EdramClaims, ARunEndsAtAnotherOwnerAFrameOrAGap) {
  EdramTracker t;
  const EdramUse a{Target(0, false), 32}, b{Target(0, true), 32};
  Draw(t, {a});
  Draw(t, {a});
  Draw(t, {b});  // another owner of the same tiles
  Draw(t, {a});  // a again: a new run, since b owned the tiles in between
  t.set_frame(1);
  Draw(t, {a});  // same claim, next frame: its own run, so per-frame totals stay exact
  t.BeginEvent();  // an event that claims nothing (a resolve of nothing, say)
  Draw(t, {a});
  ASSERT_EQ(t.claims().size(), 5u);
  EXPECT_EQ(t.claims()[0].count, 2u);
  EXPECT_EQ(t.claims()[1].count, 1u);
  EXPECT_EQ(t.claims()[2].event, 3u);
  EXPECT_EQ(t.claims()[3].frame, 1u);
  EXPECT_EQ(t.claims()[4].event, 6u);
  EdramReportOptions frame1;
  frame1.frame = 1;
  EXPECT_EQ(ComputeEdramTotals(t, frame1).claims, 2u);
  EXPECT_EQ(ComputeEdramTotals(t, EdramReportOptions{}).claims, 5u + 1u);
}

TEST(EdramClaims, NoRunContinuesAcrossASnapshot) {
  EdramTracker t;
  const EdramUse a{Target(0, false), 32};
  Draw(t, {a});
  t.RestoreSnapshot();  // claims every tile under the next event's index
  Draw(t, {a});
  ASSERT_EQ(t.claims().size(), 3u);
  EXPECT_TRUE(t.claims()[1].owner.edram_snapshot);
  EXPECT_EQ(t.claims()[2].event, 1u);
  EXPECT_EQ(t.claims()[2].count, 1u);
}

}  // namespace
}  // namespace xnt::gpu
