#include "boneyard/mgs2/strcode.h"

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
