// `xenotrace compare --inspect` (cmd_compare_inspect.cpp), called from cmd_compare.cpp.
#pragma once

#include "xnt/compare/compare.h"
#include "xnt/compare/results.h"

namespace xnt::cli {

// For every bisection that found its draw F.K: the frame inspector's site of frame F on the
// differing combination and on the reference (images for F.K only), under
// REPORT/inspect/<trace>/<combination>/, linked from the bisection. A site that cannot be
// written is named in the bisection's error line, never silently dropped.
void WriteInspectorSites(compare::RunResults& results, const compare::CompareOptions& options,
                         const std::string& report_dir);

}  // namespace xnt::cli
