#include "xnt/replay/null_backend.h"

namespace xnt::replay {

const char* EventKindName(EventKind kind) {
  switch (kind) {
    case EventKind::kEventWrite: return "EVENT_WRITE";
    case EventKind::kEventWriteShd: return "EVENT_WRITE_SHD";
    case EventKind::kEventWriteExt: return "EVENT_WRITE_EXT";
    case EventKind::kEventWriteZpd: return "EVENT_WRITE_ZPD";
    case EventKind::kVizQueryBegin: return "VIZ_QUERY_BEGIN";
    case EventKind::kVizQueryEnd: return "VIZ_QUERY_END";
    case EventKind::kInterrupt: return "INTERRUPT";
    case EventKind::kWaitForIdle: return "WAIT_FOR_IDLE";
    case EventKind::kInvalidateState: return "INVALIDATE_STATE";
    case EventKind::kContextUpdate: return "CONTEXT_UPDATE";
    case EventKind::kMeInit: return "ME_INIT";
  }
  return "?";
}

void NullBackend::OnDraw(const DrawCall& draw) {
  ++counts_.draws;
  if (draw.indices.source != xenos::SourceSelect::kAutoIndex) ++counts_.indexed_draws;
  counts_.indices += draw.initiator.num_indices;
}

void NullBackend::OnEvent(const EventCall& event) {
  ++counts_.events;
  ++counts_.events_by_kind[size_t(event.kind) & 15];
}

}  // namespace xnt::replay
