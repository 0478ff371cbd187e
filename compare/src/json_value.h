// A small JSON reader for results.json (the project has no JSON library; diff/ writes JSON by
// hand too). Objects keep member order; numbers are doubles (results.json's counts fit exactly).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace xnt::compare::json {

struct Value {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject } type = Type::kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object;

  // Member `key` of an object, or a null value when absent.
  const Value& operator[](const std::string& key) const;
  std::string Str() const { return type == Type::kString ? string : std::string(); }
  double Num() const { return type == Type::kNumber ? number : 0; }
  bool Bool() const { return type == Type::kBool && boolean; }
};

// Throws xnt::Error with the byte offset of the first problem.
Value Parse(const std::string& text);

}  // namespace xnt::compare::json
