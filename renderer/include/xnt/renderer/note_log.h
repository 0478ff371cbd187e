// What a replay could not do exactly, as a machine-readable list: each note a path counts
// (Session::notes, "text": count) with its kind, the register and field it names, and the first
// draw or resolve F.K that produced it. The list comes from the notes themselves (their wording
// and the hardware names in them), not from a list of features, so a note a path starts or stops
// producing appears or disappears without a change here.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "xnt/renderer/session.h"

namespace xnt::renderer {

// What the path did about what the note names, from its wording:
//  kSkipped: nothing was drawn / resolved / swapped ("... skipped");
//  kNotImplemented: drawn without that state's effect ("not implemented", "not modelled");
//  kInexact: drawn approximately (inexact, approximating, fallback host formats and samples);
//  kOther: anything else a path notes.
enum class NoteKind : uint8_t { kSkipped, kNotImplemented, kInexact, kOther };
const char* NoteKindName(NoteKind kind);  // "skipped", "not_implemented", "inexact", "other"

NoteKind ClassifyNote(const std::string& text);
// The first register name in the text (upper-case words joined by '_', e.g. PA_CL_CLIP_CNTL) and
// the lower-case field that follows it ("ucp_ena"); empty when the note names none.
struct NoteRegister {
  std::string name;
  std::string field;
};
NoteRegister NoteRegisterOf(const std::string& text);

struct NoteEntry {
  std::string text;
  NoteKind kind = NoteKind::kOther;
  NoteRegister reg;
  uint64_t count = 0;               // times the path counted it
  std::optional<DrawId> first;      // the first draw/resolve it was counted in (none: outside one)
  uint64_t events = 0;              // draws/resolves it was counted in
};

// Attributes the growth of a session's note counts to events: Observe(notes, id) after each draw
// or resolve F.K, Observe(notes, nullopt) before each (what was counted between events, e.g. at
// a swap, belongs to none) and once at the end.
class NoteLog {
 public:
  void Observe(const std::map<std::string, uint64_t>& notes, std::optional<DrawId> event);
  // A SessionOptions::on_draw_event that calls `inner` (if any), then Observe()s `session`'s
  // notes around each event (nothing while `session` is still null: set it once created).
  std::function<void(const DrawEvent&)> Hook(std::function<void(const DrawEvent&)> inner,
                                             Session* const& session);
  std::vector<NoteEntry> Entries() const;  // in text order

 private:
  std::map<std::string, NoteEntry> entries_;
};

}  // namespace xnt::renderer
