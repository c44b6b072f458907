// Textures for converted models: each material's TextureRef is looked up under the textures root
// (X-Ray: by path, as the engine does; MGS2: by StrCode24 of the file name), decoded by the
// texture layer and attached to the scene as a PNG image. docs/textures.md "Models".
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <map>
#include <mutex>
#include <tuple>

#include "boneyard/core/paths.h"
#include "boneyard/mgs2/strcode.h"
#include "boneyard/core/text.h"
#include "boneyard/texture/texture_convert.h"
#include "boneyard/texture/tri/tri.h"
#include "boneyard/core/file_io.h"
#include "boneyard/registry/xray_files.h"
#include "formats.h"

namespace boneyard::registry {

namespace fs = std::filesystem;

namespace {

// The extensions a texture may have, in the order they are preferred: the game's own format first.
constexpr std::array<std::string_view, 3> kXrayOrder = {".dds", ".png", ""};

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

Mgs2TextureIndex::Mgs2TextureIndex(const fs::path& root, const std::vector<std::string_view>& extensions) : root_(root) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string file_name = path_to_utf8(it->path().filename());
    const auto format = std::find(extensions.begin(), extensions.end(), lower_extension(file_name));
    if (format == extensions.end()) continue;
    const mgs2::TextureFileName parsed = mgs2::parse_texture_file_name(file_name);
    const auto index = static_cast<std::uint32_t>(files_.size());
    files_.push_back({it->path(), std::hash<std::string>{}(lower_ascii(parsed.name)), static_cast<std::uint8_t>(parsed.id ? 0 : 1),
                      static_cast<std::uint8_t>(format - extensions.begin()), static_cast<std::uint8_t>(parsed.variant ? 1 : 0)});
    for (const std::uint32_t id : parsed.ids()) claims_.emplace_back(id, index);
  }
  std::sort(claims_.begin(), claims_.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (auto group = claims_.begin(); group != claims_.end();) {
    const auto next = std::find_if(group, claims_.end(), [&](const auto& c) { return c.first != group->first; });
    if (next - group > 1) std::sort(group, next, [&](const auto& x, const auto& y) { return before(x.second, y.second); });
    group = next;
  }
}

// The rule for several files claiming one id: the id stated before a name that hashes to it, the
// extension's order, a name without "_<md5>" before its variants, the path below the root ignoring
// case, then as spelt.
bool Mgs2TextureIndex::before(std::uint32_t a, std::uint32_t b) const {
  const File& x = files_[a];
  const File& y = files_[b];
  if (std::tie(x.stated, x.format, x.variant) != std::tie(y.stated, y.format, y.variant))
    return std::tie(x.stated, x.format, x.variant) < std::tie(y.stated, y.format, y.variant);
  const std::string sx = generic_path_to_utf8(x.path.lexically_relative(root_)), sy = generic_path_to_utf8(y.path.lexically_relative(root_));
  const std::string fx = lower_ascii(sx), fy = lower_ascii(sy);
  return fx != fy ? fx < fy : sx < sy;
}

std::optional<Mgs2TextureFile> Mgs2TextureIndex::find(std::uint32_t id) const {
  const auto lo = std::lower_bound(claims_.begin(), claims_.end(), id, [](const auto& c, std::uint32_t v) { return c.first < v; });
  if (lo == claims_.end() || lo->first != id) return std::nullopt;
  const File& first = files_[lo->second];
  Mgs2TextureFile out{first.path, {}, 0};
  // The same texture in another format (x.ctxr and the x.png made from it) is no other candidate.
  for (auto it = lo + 1; it != claims_.end() && it->first == id; ++it) {
    const File& f = files_[it->second];
    if (f.name_hash != first.name_hash || f.variant != first.variant || f.stated != first.stated || f.format == first.format)
      if (out.others++ == 0) out.next = f.path;
  }
  return out;
}

Result<std::shared_ptr<const texture::PngTexture>> TextureCache::keep(const std::string& key, texture::PngTexture png) {
  auto shared = std::make_shared<const texture::PngTexture>(std::move(png));
  const std::uint64_t charge = std::max<std::uint64_t>(shared->png.size(), std::uint64_t{shared->width} * shared->height * 4);
  std::lock_guard lock(mutex_);
  // A batch over a whole game folder meets thousands of textures: the cache holds at most
  // kCacheBytes (decoded) and starts again when full (models of one folder share textures, so the
  // textures still in use come back soon).
  if (bytes_ + charge > kCacheBytes) entries_.clear(), bytes_ = 0;
  if (entries_.emplace(key, shared).second) bytes_ += charge;
  return std::shared_ptr<const texture::PngTexture>(shared);
}

Result<std::shared_ptr<const texture::PngTexture>> TextureCache::get_tri(const fs::path& file, const texture::TriFile& tri,
                                                                         std::size_t entry) {
  const std::string key = path_to_utf8(fs::absolute(file).lexically_normal()) + "#" + std::to_string(entry);
  {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(key); it != entries_.end()) return it->second;
  }
  const auto hold = decoding_.acquire(texture::tri_decoded_bytes(tri, entry));
  auto image = texture::decode_tri(tri, entry, texture::TriAlpha::scaled);
  if (!image) return image.error();
  texture::PngTexture out;
  out.width = image->width;
  out.height = image->height;
  out.alpha = texture::alpha_kind(image.value());
  out.source = texture::TextureKind::png;
  auto png = texture::encode_png(image.value());
  if (!png) return png.error();
  out.png = std::move(png).value();
  return keep(key, std::move(out));
}

Result<std::shared_ptr<const texture::PngTexture>> TextureCache::get(const fs::path& file) {
  const std::string key = path_to_utf8(fs::absolute(file).lexically_normal());
  {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(key); it != entries_.end()) return it->second;
  }
  auto data = FileData::open(file);
  if (!data) return data.error();
  const Bytes bytes = data.value()->bytes();
  const std::string ext = lower_extension(path_to_utf8(file.filename()));
  // What this decode will hold, from the header: the threads of a batch decode at most
  // kDecodingBytes together.
  const auto hold = decoding_.acquire(texture::texture_decoded_bytes(bytes, ext));
  auto png = texture::texture_as_png(bytes, ext);
  if (!png) return png.error();
  return keep(key, std::move(png).value());
}

std::vector<fs::path> mgs2_tri_files(const fs::path& model, std::uint32_t tri_id, const fs::path& textures_root) {
  std::vector<fs::path> out;
  const auto tris_in = [](const fs::path& folder, bool recursive) {
    std::vector<fs::path> found;
    std::error_code ec;
    const auto take = [&](const fs::directory_entry& d) {
      if (d.is_regular_file(ec) && lower_extension(path_to_utf8(d.path().filename())) == ".tri") found.push_back(d.path());
    };
    if (recursive)
      for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
           it.increment(ec))
        take(*it);
    else
      for (fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end; it.increment(ec))
        take(*it);
    std::sort(found.begin(), found.end());
    return found;
  };
  std::vector<std::pair<fs::path, bool>> found;  // path, beside the model
  if (!model.empty())
    for (auto& p : tris_in(model.parent_path().empty() ? fs::path(".") : model.parent_path(), false)) found.emplace_back(std::move(p), true);
  if (!textures_root.empty())
    for (auto& p : tris_in(textures_root, true))
      if (std::none_of(found.begin(), found.end(), [&](const auto& q) { return p == q.first || same_file(p, q.first); }))
        found.emplace_back(std::move(p), false);
  // The model's own .tri first wherever it is: the one its group id names (by the StrCode24 of
  // its stem, or a stem of those 8 hex digits, as extracted archives name files), then the one
  // of its stem; beside the model before under --textures; then by name.
  char group[16];
  std::snprintf(group, sizeof group, "%08x", tri_id);
  const std::string stem = lower_ascii(path_to_utf8(model.stem()));
  const auto rank = [&](const std::pair<fs::path, bool>& p) {
    const std::string s = path_to_utf8(p.first.stem());
    const int own = (tri_id != 0 && (mgs2::strcode(s) == tri_id || lower_ascii(s) == group)) ? 0
                    : (!model.empty() && lower_ascii(s) == stem)                        ? 1
                                                                                        : 2;
    return own * 2 + (p.second ? 0 : 1);
  };
  std::stable_sort(found.begin(), found.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  for (auto& f : found) out.push_back(std::move(f.first));
  return out;
}

namespace {

// The .tri files of one conversion, each read when a texture is first looked up in it.
class TriSources {
 public:
  TriSources(const std::vector<fs::path>& paths, Diagnostics& warnings) : paths_(paths), warnings_(warnings) {}
  struct Found {
    const fs::path* path;
    const texture::TriFile* tri;
    std::size_t entry;
    std::uint64_t* pixels;  // decoded from this .tri so far
  };
  std::optional<Found> find(std::uint32_t id) {
    for (std::size_t i = 0; i < paths_.size(); ++i) {
      if (i == opened_.size()) opened_.push_back(open(paths_[i]));
      Opened& o = opened_[i];
      if (!o.tri) continue;
      if (auto it = o.by_id.find(id); it != o.by_id.end()) return Found{&paths_[i], &*o.tri, it->second, &o.pixels};
    }
    return std::nullopt;
  }
  std::string described() const {
    std::string s;
    for (std::size_t i = 0; i < paths_.size() && i < 3; ++i) s += (i ? ", " : "") + path_to_utf8(paths_[i]);
    if (paths_.size() > 3) s += " and " + std::to_string(paths_.size() - 3) + " more";
    return s;
  }

 private:
  struct Opened {
    std::optional<texture::TriFile> tri;
    std::map<std::uint32_t, std::size_t> by_id;  // the first entry with each id
    std::uint64_t pixels = 0;
  };
  Opened open(const fs::path& path) {
    Opened o;
    auto file = FileData::open(path);
    Result<texture::TriFile> tri = file ? texture::read_tri(std::move(file).value()) : Result<texture::TriFile>(file.error());
    if (!tri) {
      const Finding& f = tri.error();
      warnings_.add(Severity::warning, 0, {}, "texture archive " + path_to_utf8(path) + " not read (its textures are not used): " +
                                                  f.message + (f.io ? "" : " at byte " + std::to_string(f.offset)),
                    f.expected, f.found);
      return o;
    }
    o.tri = std::move(tri).value();
    for (const auto& e : o.tri->entries) o.by_id.emplace(e.id, e.index);
    return o;
  }
  const std::vector<fs::path>& paths_;
  Diagnostics& warnings_;
  std::vector<Opened> opened_;
};

}  // namespace

void attach_textures(scene::Scene& sc, const fs::path& root, Diagnostics& warnings, TextureCache* shared_cache,
                     const std::vector<fs::path>& tris) {
  if (root.empty() && tris.empty()) return;
  TextureCache local;
  TextureCache& cache = shared_cache ? *shared_cache : local;
  std::optional<Mgs2TextureIndex> by_id;
  TriSources tri_sources(tris, warnings);
  std::map<std::string, std::uint32_t> image_of;  // file (or .tri entry) -> scene image
  std::map<std::string, bool> reported;           // one warning per texture
  std::map<std::uint32_t, texture::AlphaKind> alpha_of;
  const auto not_used = [&](const scene::TextureRef& ref, const std::string& key, const std::string& what, const Finding& f) {
    if (!reported[key]) {
      std::string why = f.message;
      if (!f.io) why += " at byte " + std::to_string(f.offset) + (f.path.empty() ? "" : " in " + f.path);
      warnings.add(Severity::warning, ref.offset, ref.origin, "texture " + what + " not used (material left untextured): " + why,
                   f.expected, f.found);
    }
    reported[key] = true;
  };
  for (auto& m : sc.materials) {
    const scene::TextureRef& ref = m.texture;
    if (ref.empty()) continue;
    std::optional<fs::path> file;
    std::optional<TriSources::Found> in_tri;
    std::string looked;
    const std::string key = ref.path.empty() ? id_text(ref.id) : lower_ascii(ref.path);
    if (!ref.path.empty()) {
      if (root.empty()) continue;
      const std::string name = cp1251_to_utf8(ref.path);
      for (const auto ext : kXrayOrder) {
        if (ext.empty()) break;
        if ((file = find_ignoring_case(root, name + std::string(ext)))) break;
      }
      std::string shown = name;
      std::replace(shown.begin(), shown.end(), '\\', '/');
      looked = path_to_utf8((root / path_from_utf8(shown)).make_preferred()) + ".dds (or .png)";
    } else {
      if (!root.empty()) {
        if (!by_id) by_id.emplace(root, std::vector<std::string_view>{".ctxr", ".dds", ".png"});
        if (const auto found = by_id->find(ref.id)) {
          file = found->path;
          if (found->others > 0 && !reported[key + "#others"]) {
            reported[key + "#others"] = true;
            warnings.add(Severity::warning, ref.offset, ref.origin,
                         "texture " + id_text(ref.id) + ": " + std::to_string(found->others + 1) +
                             " files could be it; used " + path_to_utf8(*file) + " (docs/textures.md \"Texture files by id\")",
                         "one file", path_to_utf8(*file) + ", " + path_to_utf8(found->next) +
                                         (found->others > 1 ? " and " + std::to_string(found->others - 1) + " more" : ""));
          }
        }
        looked = "a .ctxr, .dds or .png under " + path_to_utf8(root) + " named by the id or by a name whose StrCode24 (with or "
                 "without \".bmp\") is " + id_text(ref.id);
      }
      if (!file && !tris.empty()) {
        in_tri = tri_sources.find(ref.id);
        looked += std::string(looked.empty() ? "" : ", or ") + "an entry " + id_text(ref.id) + " in " + tri_sources.described();
      }
    }
    if (!file && !in_tri) {
      if (!reported[key])
        warnings.add(Severity::warning, ref.offset, ref.origin, "texture not found: material left untextured", looked, "nothing");
      reported[key] = true;
      continue;
    }
    const std::string file_key =
        in_tri ? path_to_utf8(*in_tri->path) + "#" + std::to_string(in_tri->entry) : path_to_utf8(*file);
    auto known = image_of.find(file_key);
    if (known == image_of.end()) {
      Result<std::shared_ptr<const texture::PngTexture>> png = Finding{};
      std::string what;
      if (in_tri) {
        what = id_text(ref.id) + " of " + path_to_utf8(*in_tri->path);
        // A model can name every texture of its .tri, but no more pixels than the .tri accounts for.
        *in_tri->pixels += texture::tri_decoded_bytes(*in_tri->tri, in_tri->entry) / 4;
        if (*in_tri->pixels > texture::tri_pixel_budget(*in_tri->tri))
          png = Finding{Severity::error, in_tri->tri->entries[in_tri->entry].offset, {},
                        "the textures used from this .tri are larger than its image block holds 16 times over",
                        "at most " + std::to_string(texture::tri_pixel_budget(*in_tri->tri)) + " pixels",
                        std::to_string(*in_tri->pixels) + " pixels"};
        else
          png = cache.get_tri(*in_tri->path, *in_tri->tri, in_tri->entry);
      } else {
        what = path_to_utf8(*file);
        png = cache.get(*file);
      }
      if (!png) {
        not_used(ref, key, what, png.error());
        continue;
      }
      scene::Image im;
      // A .tri entry's image is named by its id (8 hex digits): an import that lost the
      // material's name and extras still reads the id back from it.
      im.name = in_tri ? id_text(ref.id).substr(2) : path_to_utf8(file->stem());
      if (in_tri) im.name = lower_ascii(im.name);
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
