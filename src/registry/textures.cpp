// Textures for converted models: each material's TextureRef is looked up under the textures root
// (X-Ray: by path, as the engine does; MGS2: by StrCode24 of the file name), decoded by the
// texture layer and attached to the scene as a PNG image. docs/textures.md "Models".
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <map>
#include <mutex>

#include "boneyard/mgs2/strcode.h"
#include "boneyard/core/text.h"
#include "boneyard/texture/texture_convert.h"
#include "boneyard/registry/xray_files.h"
#include "formats.h"

namespace boneyard::registry {

namespace fs = std::filesystem;

namespace {


// The extensions a texture may have, in the order they are preferred: the game's own format first.
constexpr std::array<std::string_view, 3> kXrayOrder = {".dds", ".png", ""};
constexpr std::array<std::string_view, 3> kMgs2Order = {".ctxr", ".dds", ".png"};

int rank(std::string_view ext, const std::array<std::string_view, 3>& order) {
  for (std::size_t i = 0; i < order.size(); ++i)
    if (!order[i].empty() && order[i] == ext) return static_cast<int>(i);
  return -1;
}

// MGS2: every texture file under the root by the id its name hashes to (StrCode24 of
// "<stem>.bmp", or the stem itself when it is 8 hex digits, as --textures PNGs were named).
std::map<std::uint32_t, fs::path> index_by_strcode(const fs::path& root) {
  std::map<std::uint32_t, std::pair<int, fs::path>> best;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string ext = lower_extension(it->path().string());
    const int r = rank(ext, kMgs2Order);
    if (r < 0) continue;
    const std::string stem = it->path().stem().string();
    std::uint32_t id = mgs2::strcode(stem + ".bmp");
    if (stem.size() == 8 && std::all_of(stem.begin(), stem.end(), [](unsigned char c) { return std::isxdigit(c); }))
      id = static_cast<std::uint32_t>(std::stoul(stem, nullptr, 16));
    auto [pos, added] = best.try_emplace(id, r, it->path());
    if (!added && (r < pos->second.first || (r == pos->second.first && it->path() < pos->second.second)))
      pos->second = {r, it->path()};
  }
  std::map<std::uint32_t, fs::path> out;
  for (auto& [id, v] : best) out.emplace(id, std::move(v.second));
  return out;
}

// glTF's alpha mode for a material from how its shader uses alpha and what the texture holds.
scene::AlphaMode alpha_mode_for(scene::Material& m, texture::AlphaKind alpha) {
  if (alpha == texture::AlphaKind::opaque) return scene::AlphaMode::opaque;
  switch (m.alpha_use) {
    case scene::AlphaUse::none: return scene::AlphaMode::opaque;
    case scene::AlphaUse::test: return scene::AlphaMode::mask;
    case scene::AlphaUse::blend: return scene::AlphaMode::blend;
    case scene::AlphaUse::texture:
      if (alpha == texture::AlphaKind::graded) return scene::AlphaMode::blend;
      m.alpha_cutoff = 0.5f;
      return scene::AlphaMode::mask;
  }
  return scene::AlphaMode::opaque;
}

std::string id_text(std::uint32_t id) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08X", id);
  return b;
}

}  // namespace

Result<std::shared_ptr<const texture::PngTexture>> TextureCache::get(const fs::path& file) {
  const std::string key = fs::absolute(file).lexically_normal().string();
  {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(key); it != entries_.end()) return it->second;
  }
  auto data = FileData::open(file);
  if (!data) return data.error();
  const Bytes bytes = data.value()->bytes();
  const std::string ext = lower_extension(file.string());
  // What this decode will hold, from the header: the threads of a batch decode at most
  // kDecodingBytes together.
  const auto hold = decoding_.acquire(texture::texture_decoded_bytes(bytes, ext));
  auto png = texture::texture_as_png(bytes, ext);
  if (!png) return png.error();
  auto shared = std::make_shared<const texture::PngTexture>(std::move(png).value());
  const std::uint64_t charge = std::max<std::uint64_t>(shared->png.size(), std::uint64_t{shared->width} * shared->height * 4);
  std::lock_guard lock(mutex_);
  // A batch over a whole game folder meets thousands of textures: the cache holds at most
  // kCacheBytes (decoded) and starts again when full (models of one folder share textures, so the
  // textures still in use come back soon).
  if (bytes_ + charge > kCacheBytes) entries_.clear(), bytes_ = 0;
  if (entries_.emplace(key, shared).second) bytes_ += charge;
  return std::shared_ptr<const texture::PngTexture>(shared);
}

void attach_textures(scene::Scene& sc, const fs::path& root, Diagnostics& warnings, TextureCache* shared_cache) {
  if (root.empty()) return;
  TextureCache local;
  TextureCache& cache = shared_cache ? *shared_cache : local;
  std::optional<std::map<std::uint32_t, fs::path>> by_id;
  std::map<std::string, std::uint32_t> image_of;  // file -> scene image
  std::map<std::string, bool> reported;           // one warning per texture
  std::map<std::uint32_t, texture::AlphaKind> alpha_of;
  for (auto& m : sc.materials) {
    const scene::TextureRef& ref = m.texture;
    if (ref.empty()) continue;
    std::optional<fs::path> file;
    std::string looked;
    const std::string key = ref.path.empty() ? id_text(ref.id) : lower_ascii(ref.path);
    if (!ref.path.empty()) {
      const std::string name = cp1251_to_utf8(ref.path);
      for (const auto ext : kXrayOrder) {
        if (ext.empty()) break;
        if ((file = find_ignoring_case(root, name + std::string(ext)))) break;
      }
      std::string shown = name;
      std::replace(shown.begin(), shown.end(), '\\', '/');
      looked = (root / shown).string() + ".dds (or .png)";
    } else {
      if (!by_id) by_id = index_by_strcode(root);
      if (auto it = by_id->find(ref.id); it != by_id->end()) file = it->second;
      looked = "a .ctxr, .dds or .png under " + root.string() + " whose name + \".bmp\" has StrCode24 " + id_text(ref.id);
    }
    if (!file) {
      if (!reported[key])
        warnings.add(Severity::warning, ref.offset, ref.origin, "texture not found: material left untextured", looked, "nothing");
      reported[key] = true;
      continue;
    }
    const std::string file_key = file->string();
    auto known = image_of.find(file_key);
    if (known == image_of.end()) {
      auto png = cache.get(*file);
      if (!png) {
        if (!reported[key]) {
          const Finding& f = png.error();
          std::string why = f.message;
          if (!f.io) why += " at byte " + std::to_string(f.offset) + (f.path.empty() ? "" : " in " + f.path);
          warnings.add(Severity::warning, ref.offset, ref.origin,
                       "texture " + file->string() + " not used (material left untextured): " + why, f.expected, f.found);
        }
        reported[key] = true;
        continue;
      }
      scene::Image im;
      im.name = file->stem().string();
      im.data = png.value()->png;
      im.width = png.value()->width;
      im.height = png.value()->height;
      known = image_of.emplace(file_key, static_cast<std::uint32_t>(sc.images.size())).first;
      sc.images.push_back(std::move(im));
      alpha_of[known->second] = png.value()->alpha;
    }
    m.image = known->second;
    m.alpha_mode = alpha_mode_for(m, alpha_of[known->second]);
  }
}

}  // namespace boneyard::registry
