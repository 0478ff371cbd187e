// The results.json reader (json_value.h): recursive descent over RFC 8259, depth-limited.
#include "json_value.h"

#include <cstdlib>

#include "xnt/base/error.h"

namespace xnt::compare::json {
namespace {

const Value kNull;

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  Value Document() {
    Value v = Parse(0);
    Space();
    if (i_ != s_.size()) Fail("text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void Fail(const std::string& why) {
    throw Error("JSON: " + why + " at byte " + std::to_string(i_));
  }
  void Space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  bool Eat(char c) {
    Space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void Expect(char c) {
    if (!Eat(c)) Fail(std::string("expected '") + c + "'");
  }
  bool Word(const char* w) {
    size_t n = std::char_traits<char>::length(w);
    if (s_.compare(i_, n, w) == 0) {
      i_ += n;
      return true;
    }
    return false;
  }

  Value Parse(int depth) {
    if (depth > 64) Fail("nested too deeply");
    Space();
    if (i_ >= s_.size()) Fail("unexpected end");
    Value v;
    char c = s_[i_];
    if (c == '{') {
      ++i_;
      v.type = Value::Type::kObject;
      if (Eat('}')) return v;
      do {
        Space();
        std::string key = String();
        Expect(':');
        v.object.emplace_back(std::move(key), Parse(depth + 1));
      } while (Eat(','));
      Expect('}');
    } else if (c == '[') {
      ++i_;
      v.type = Value::Type::kArray;
      if (Eat(']')) return v;
      do v.array.push_back(Parse(depth + 1));
      while (Eat(','));
      Expect(']');
    } else if (c == '"') {
      v.type = Value::Type::kString;
      v.string = String();
    } else if (Word("true")) {
      v.type = Value::Type::kBool;
      v.boolean = true;
    } else if (Word("false")) {
      v.type = Value::Type::kBool;
    } else if (Word("null")) {
    } else {
      const char* begin = s_.c_str() + i_;
      char* end = nullptr;
      v.number = std::strtod(begin, &end);
      if (end == begin) Fail("not a JSON value");
      v.type = Value::Type::kNumber;
      i_ += size_t(end - begin);
    }
    return v;
  }

  void Utf8(uint32_t cp, std::string& out) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }
  uint32_t Hex4() {
    if (i_ + 4 > s_.size()) Fail("short \\u escape");
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      char h = s_[i_++];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= uint32_t(h - '0');
      else if (h >= 'a' && h <= 'f') v |= uint32_t(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= uint32_t(h - 'A' + 10);
      else Fail("bad \\u escape");
    }
    return v;
  }
  std::string String() {
    if (i_ >= s_.size() || s_[i_] != '"') Fail("expected a string");
    ++i_;
    std::string out;
    while (true) {
      if (i_ >= s_.size()) Fail("unterminated string");
      char c = s_[i_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) Fail("unterminated escape");
      char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = Hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && i_ + 6 <= s_.size() && s_[i_] == '\\' && s_[i_ + 1] == 'u') {
            i_ += 2;
            uint32_t lo = Hex4();
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          Utf8(cp, out);
          break;
        }
        default: Fail("bad escape");
      }
    }
  }

  const std::string& s_;
  size_t i_ = 0;
};

}  // namespace

const Value& Value::operator[](const std::string& key) const {
  for (const auto& [k, v] : object) {
    if (k == key) return v;
  }
  return kNull;
}

Value Parse(const std::string& text) { return Parser(text).Document(); }

}  // namespace xnt::compare::json
