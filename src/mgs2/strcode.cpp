#include "boneyard/mgs2/strcode.h"

#include <algorithm>

namespace boneyard {

namespace mgs2 {

std::uint32_t strcode(std::string_view name) {
  std::uint32_t id = 0;
  for (const char ch : name) {
    // Bytes are unsigned: names with bytes >= 0x80 must not sign-extend.
    const auto c = static_cast<std::uint8_t>(ch);
    id = ((id >> 19) | (id << 5)) & 0x00FFFFFFU;
    id = (id + c) & 0x00FFFFFFU;
  }
  return id == 0 ? 1 : id;
}

namespace {

bool hex_digits(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

bool ends_with_ignoring_case(std::string_view s, std::string_view tail) {
  if (s.size() < tail.size()) return false;
  for (std::size_t i = 0; i < tail.size(); ++i) {
    char c = s[s.size() - tail.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != tail[i]) return false;
  }
  return true;
}

}  // namespace

TextureFileName parse_texture_file_name(std::string_view file_name) {
  TextureFileName out;
  std::string_view base = file_name;
  if (const std::size_t dot = base.rfind('.'); dot != std::string_view::npos && dot > 0) base = base.substr(0, dot);
  // Bluepoint's second file of a name: "<name>.bmp_<md5>" (also "<id>.img_<md5>").
  if (const std::size_t us = base.rfind('_');
      us != std::string_view::npos && us > 0 && base.size() - us == 33 && hex_digits(base.substr(us + 1))) {
    base = base.substr(0, us);
    out.variant = true;
  }
  if (ends_with_ignoring_case(base, ".bmp") && base.size() > 4) base.remove_suffix(4);
  std::string_view digits = base;
  if (ends_with_ignoring_case(digits, ".img")) digits.remove_suffix(4);
  if ((digits.size() == 6 || digits.size() == 8) && hex_digits(digits) && (digits.size() == base.size() || digits.size() == 8))
    out.id = static_cast<std::uint32_t>(std::stoul(std::string(digits), nullptr, 16));
  out.name = std::string(base);
  return out;
}

std::vector<std::uint32_t> TextureFileName::ids() const {
  if (id) return {*id};
  const std::uint32_t with_bmp = strcode(name + ".bmp"), bare = strcode(name);
  if (with_bmp == bare) return {with_bmp};
  return {with_bmp, bare};
}

}  // namespace mgs2

void TextureNames::add(std::string name) {
  const std::uint32_t id = mgs2::strcode(name);
  // The first name wins on a collision, so the order of the list decides.
  names_.try_emplace(id, std::move(name));
}

void TextureNames::load_text(std::string_view text) {
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (!line.empty()) add(std::string(line));
    pos = nl + 1;
  }
}

const std::string* TextureNames::find(std::uint32_t id) const {
  const auto it = names_.find(id);
  return it == names_.end() ? nullptr : &it->second;
}

}  // namespace boneyard
