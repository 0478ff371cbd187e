// The replay's notes as a list (note_log.h).
#include "xnt/renderer/note_log.h"

#include <cctype>

#include "xnt/base/enum_names.h"

namespace xnt::renderer {

const char* NoteKindName(NoteKind kind) {
  static const char* const kNames[] = {"skipped", "not_implemented", "inexact", "other"};
  return EnumName(kind, kNames, "other");
}

namespace {

bool Has(const std::string& text, const char* words) { return text.find(words) != std::string::npos; }

bool IsRegisterChar(char c) { return std::isupper(uint8_t(c)) || std::isdigit(uint8_t(c)) || c == '_'; }
bool IsFieldChar(char c) { return std::islower(uint8_t(c)) || std::isdigit(uint8_t(c)) || c == '_'; }

}  // namespace

NoteKind ClassifyNote(const std::string& text) {
  // A skip says the most about the frame (nothing of the event is there), so it wins over the
  // reason it gives ("draw of primitive type ... skipped (not implemented)").
  if (Has(text, "skipped")) return NoteKind::kSkipped;
  // Drawn without it: what the notes say of state they leave out or read as zeros.
  for (const char* words : {"not implemented", "not modelled", "unsupported", "not decoded",
                            "as zeros", "returns zeros", "not loaded", "dropped", "applies none",
                            "not applied"}) {
    if (Has(text, words)) return NoteKind::kNotImplemented;
  }
  // Drawn approximately: their words for a near result, a fallback (a guest format held in a
  // wider or narrower host target) or a missing device feature;
  // "texture: " and "sampler: " carry the texture cache's own inexact descriptions.
  for (const char* words : {"inexact", "approximat", "not bit-exact", "host sample", "host target",
                            "lacks", "instead", "nearest slice", "drawn square", "are used"}) {
    if (Has(text, words)) return NoteKind::kInexact;
  }
  if (text.rfind("texture: ", 0) == 0 || text.rfind("sampler: ", 0) == 0) return NoteKind::kInexact;
  return NoteKind::kOther;
}

NoteRegister NoteRegisterOf(const std::string& text) {
  NoteRegister r;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i > 0 && (IsRegisterChar(text[i - 1]) || std::isalpha(uint8_t(text[i - 1])))) continue;
    size_t end = i;
    while (end < text.size() && IsRegisterChar(text[end])) ++end;
    const std::string word = text.substr(i, end - i);
    // Register names are at least two upper-case parts (VGT_HOS_CNTL, RB_MODECONTROL): this
    // skips "MSAA", "F.K" and single letters.
    if (word.find('_') == std::string::npos || word.front() == '_' || word.back() == '_' ||
        !std::isupper(uint8_t(word.front())) || (end < text.size() && std::isalpha(uint8_t(text[end])))) {
      continue;
    }
    r.name = word;
    size_t f = end;
    if (f < text.size() && text[f] == ' ') ++f;
    size_t fend = f;
    while (fend < text.size() && IsFieldChar(text[fend])) ++fend;
    // A field is a lower-case word with an underscore or followed by a value ("edram_mode 0",
    // "ucp_ena 0x02"), not a plain English word after the register ("RB_SURFACE_INFO says").
    const std::string field = text.substr(f, fend - f);
    if (!field.empty() && std::islower(uint8_t(field.front())) && field.find('_') != std::string::npos) {
      r.field = field;
    }
    return r;
  }
  return r;
}

void NoteLog::Observe(const std::map<std::string, uint64_t>& notes, std::optional<DrawId> event) {
  for (const auto& [text, count] : notes) {
    NoteEntry& e = entries_[text];
    if (count <= e.count) continue;
    if (e.text.empty()) {
      e.text = text;
      e.kind = ClassifyNote(text);
      e.reg = NoteRegisterOf(text);
    }
    if (event) {
      if (!e.first) e.first = event;
      ++e.events;
    }
    e.count = count;
  }
}

std::function<void(const DrawEvent&)> NoteLog::Hook(std::function<void(const DrawEvent&)> inner,
                                                    Session* const& session) {
  return [this, inner = std::move(inner), &session](const DrawEvent& e) {
    if (inner) inner(e);
    if (!session) return;
    std::optional<DrawId> at;
    if (e.after) at = DrawId{e.draw->frame, e.draw->draw_index};
    Observe(session->notes(), at);
  };
}

std::vector<NoteEntry> NoteLog::Entries() const {
  std::vector<NoteEntry> out;
  out.reserve(entries_.size());
  for (const auto& [text, e] : entries_) out.push_back(e);
  return out;
}

}  // namespace xnt::renderer
