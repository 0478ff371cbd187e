// Escaping text for the HTML reports (diff, compare, the EDRAM ownership map) and the JUnit XML
// files. One rule per language, so that every report quotes a trace name the same way.
#pragma once

#include <string>
#include <string_view>

namespace xnt {

enum class Markup { kHtml, kXml };

// HTML text and double-quoted attribute values: & < > " become entities. XML 1.0 also gets
// &apos;, and control characters other than tab and newline become spaces, because XML 1.0
// forbids them even as character references (a JUnit reader refuses the whole file otherwise).
inline void AppendEscaped(std::string& out, std::string_view s, Markup markup) {
  const bool xml = markup == Markup::kXml;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += xml ? "&apos;" : "'"; break;
      default:
        if (xml && static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') out += ' ';
        else out += c;
    }
  }
}

inline void AppendHtml(std::string& out, std::string_view s) { AppendEscaped(out, s, Markup::kHtml); }
inline void AppendXml(std::string& out, std::string_view s) { AppendEscaped(out, s, Markup::kXml); }
inline std::string EscapeHtml(std::string_view s) {
  std::string out;
  AppendHtml(out, s);
  return out;
}
inline std::string EscapeXml(std::string_view s) {
  std::string out;
  AppendXml(out, s);
  return out;
}

}  // namespace xnt
