// `boneyard texture` for MGS2 .tri archives: every texture to a PNG named by id or name, and a
// folder of PNGs back into the entries they came from (docs/textures.md "TRI").
#include "boneyard/registry/tri_files.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <memory>

#include "boneyard/core/file_io.h"
#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/mgs2/strcode.h"
#include "boneyard/registry/output_plan.h"
#include "parallel.h"

namespace boneyard {

namespace fs = std::filesystem;

namespace {

std::string id6(std::uint32_t id) {
  char b[16];
  std::snprintf(b, sizeof b, "%06x", id);
  return b;
}

std::string texture_label(const std::string& file, std::uint32_t id) {
  char b[32];
  std::snprintf(b, sizeof b, " (texture 0x%06X)", id);
  return file + b;
}

// A finding about another file than the output (a PNG, the template), told as one: its place in
// that file goes into the message, so that the line about the output names the file at fault.
Finding in_file(const std::string& file, Finding f) {
  std::string where = file;
  if (!f.io && (f.offset != 0 || !f.path.empty()))
    where += " at byte " + std::to_string(f.offset) + (f.path.empty() ? "" : " in " + f.path);
  f.message = where + ": " + f.message;
  f.offset = 0;
  f.path.clear();
  return f;
}

bool alpha_above_ps2_opaque(const texture::Image& im) {
  for (std::size_t p = 3; p < im.rgba.size(); p += 4)
    if (im.rgba[p] > 0x80) return true;
  return false;
}

// A name that every system the game's modders use can hold as a file name.
bool portable_file_name(const std::string& name) {
  if (name.empty() || name.size() > 200 || name == "." || name == ".." || name.back() == '.' || name.back() == ' ') return false;
  for (unsigned char c : name)
    if (c < 0x20 || std::string_view("<>:\"/\\|?*").find(char(c)) != std::string_view::npos) return false;
  std::string stem = lower_ascii(name.substr(0, name.find('.')));
  static const char* kDevices[] = {"con", "prn", "aux", "nul"};
  for (const char* d : kDevices)
    if (stem == d) return false;
  if (stem.size() == 4 && (stem.rfind("com", 0) == 0 || stem.rfind("lpt", 0) == 0) && std::isdigit((unsigned char)stem[3])) return false;
  return true;
}

Result<texture::TriFile> open_tri(const fs::path& path, std::optional<texture::TriLayout> layout) {
  auto file = FileData::open(path);
  if (!file) return file.error();
  return texture::read_tri(std::move(file).value(), layout);
}

// The PNGs of the inputs: files as given, the .png files of folders (not their subfolders), sorted.
Result<std::vector<fs::path>> png_inputs(const std::vector<fs::path>& inputs) {
  std::vector<fs::path> out;
  for (const auto& in : inputs) {
    std::error_code ec;
    if (!fs::is_directory(in, ec)) {
      out.push_back(in);
      continue;
    }
    std::vector<fs::path> found;
    for (fs::directory_iterator it(in, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_regular_file(ec) && lower_extension(path_to_utf8(it->path().filename())) == ".png") found.push_back(it->path());
    if (ec) return io_error_finding(path_to_utf8(in), "cannot list the folder: " + ec.message());
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

}  // namespace

Status check_tri_pixels(const texture::TriFile& t) {
  // A file whose rectangles claim more pixels than its blocks can account for is refused whole:
  // it would make gigabytes of PNGs out of a few kilobytes.
  std::uint64_t pixels = 0;
  for (std::size_t i = 0; i < t.entries.size(); ++i) pixels += texture::tri_decoded_bytes(t, i) / 4;
  if (pixels > texture::tri_pixel_budget(t))
    return Finding{Severity::error, 0x10, "texture count",
                   "the textures together are larger than the image block holds 16 times over (overlapping rectangles)",
                   "at most " + std::to_string(texture::tri_pixel_budget(t)) + " pixels", std::to_string(pixels) + " pixels"};
  return {};
}

Status write_tri_png(const texture::TriFile& t, std::size_t entry, const fs::path& output, const TriToPngOptions& o,
                     const std::function<Status()>& last_check) {
  auto image = texture::decode_tri(t, entry, o.alpha);
  if (!image) return image.error();
  if (last_check)
    if (auto ok = last_check(); !ok) return ok;
  auto file = AtomicFile::create(output);
  if (!file) return file.error();
  texture::PngWriteOptions po;
  po.compression_level = o.png_level;
  po.chunks.push_back(texture::tri_png_chunk(t.entries[entry], o.alpha));
  if (auto s = texture::write_png(*file.value(), image.value(), std::move(po)); !s) return s;
  return file.value()->commit();
}

std::vector<std::string> tri_png_names(const texture::TriFile& tri, const TextureNames* names, Diagnostics* notes) {
  std::vector<std::string> out;
  std::map<std::string, std::pair<std::size_t, std::string>> taken;  // lower-case name -> entry, its name
  for (const auto& e : tri.entries) {
    std::string base = id6(e.id);
    if (names)
      if (const std::string* n = names->find(e.id)) {
        std::string stem = *n;
        if (stem.size() > 4 && lower_ascii(stem.substr(stem.size() - 4)) == ".bmp") stem.resize(stem.size() - 4);
        if (portable_file_name(stem + ".png")) base = stem;
        else if (notes)
          notes->add(Severity::warning, e.offset, {},
                     "texture 0x" + id6(e.id) + " is named '" + escape_controls(*n) + "', which is no portable file name: written as " +
                         base + ".png");
      }
    std::string name = base + ".png";
    for (unsigned k = 2; taken.count(lower_ascii(name)) != 0; ++k) name = base + "_" + std::to_string(k) + ".png";
    if (name != base + ".png" && notes) {
      const auto& [entry, first] = taken[lower_ascii(base + ".png")];
      notes->add(Severity::warning, e.offset, {},
                 "written as " + name + ": entry " + std::to_string(entry) + " is " + first +
                     " already (names that differ only in case are one file on Windows)");
    }
    taken.emplace(lower_ascii(name), std::make_pair(std::size_t{e.index}, name));
    out.push_back(std::move(name));
  }
  return out;
}

Result<std::vector<TextureBatchItem>> convert_tri_to_pngs(const fs::path& tri_path, const fs::path& output_dir,
                                                          const TriToPngOptions& o, unsigned threads,
                                                          const std::function<void(const TextureBatchItem&)>& progress) {
  OutputPlan plan;
  plan.add_read(tri_path, "the input file");
  plan.add_read(o.names_file, "the --names list");
  auto tri = open_tri(tri_path, o.layout);
  if (!tri) return tri.error();
  const texture::TriFile& t = tri.value();
  if (auto fits = check_tri_pixels(t); !fits) return fits.error();
  Diagnostics naming;
  const std::vector<std::string> names = tri_png_names(t, o.names, &naming);
  std::vector<TextureBatchItem> items;
  for (std::size_t i = 0; i < t.entries.size(); ++i) {
    TextureBatchItem item{tri_path, output_dir / path_from_utf8(names[i]), {}, {}};
    if (auto planned = plan.add_write(item.output); !planned) return planned.error();
    for (const auto& f : naming.findings())
      if (f.offset == t.entries[i].offset) item.notes.add(f);
    items.push_back(std::move(item));
  }
  std::error_code ec;
  fs::create_directories(output_dir, ec);
  registry::run_parallel(items.size(), threads, [&](std::size_t i) {
    TextureBatchItem& item = items[i];
    try {
      item.status = write_tri_png(t, i, item.output, o, [&] { return plan.check(); });
    } catch (const std::exception& e) {  // bad_alloc: this texture fails alone
      item.status = Finding{Severity::error, 0, {}, std::string("internal error: ") + e.what(), {}, {}};
    }
    return true;
  }, [&](std::size_t i) {
    if (progress) progress(items[i]);
  });
  return items;
}

Status convert_pngs_to_tri(const std::vector<fs::path>& inputs, const fs::path& output, const PngToTriOptions& o,
                           Diagnostics* notes) {
  if (o.template_path.empty())
    return usage_error_finding("a .tri is made from the .tri the PNGs came from: give it with --template ORIGINAL.tri");
  auto pngs = png_inputs(inputs);
  if (!pngs) return pngs.error();
  OutputPlan plan;
  plan.add_read(o.template_path, "the --template");
  plan.add_read(o.names_file, "the --names list");
  for (const auto& p : pngs.value()) plan.add_read(p, "the input file");
  if (lower_extension(path_to_utf8(output.filename())) != ".tri")
    return usage_error_finding("the output must end in .tri (found '" + path_to_utf8(output.filename()) + "')");
  if (auto planned = plan.add_write(output); !planned) return planned;
  auto tri = open_tri(o.template_path, o.layout);
  if (!tri) return in_file("the --template " + path_to_utf8(o.template_path), tri.error());
  const texture::TriFile& t = tri.value();
  // Which entry each PNG is for.
  const std::vector<std::string> names = tri_png_names(t, o.names, nullptr);
  std::map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < names.size(); ++i) by_name.emplace(lower_ascii(names[i]), i);
  std::map<std::size_t, fs::path> taken;
  std::vector<texture::TriEdit> edits;
  for (const auto& png_path : pngs.value()) {
    const std::string file_name = path_to_utf8(png_path.filename());
    std::optional<std::size_t> entry;
    if (auto it = by_name.find(lower_ascii(file_name)); it != by_name.end()) {
      entry = it->second;
    } else {
      // The names a model's texture lookup takes (mgs2::parse_texture_file_name).
      const std::vector<std::uint32_t> ids = mgs2::parse_texture_file_name(file_name).ids();
      std::vector<std::size_t> matches;
      for (const auto& e : t.entries)
        if (std::find(ids.begin(), ids.end(), e.id) != ids.end()) matches.push_back(e.index);
      if (matches.size() > 1)
        return Finding{Severity::error, 0, {}, file_name + ": several textures of the template could be this one", "one",
                       std::to_string(matches.size()) + " (name the file as `boneyard texture` names it: " + names[matches[0]] + ", " +
                           names[matches[1]] + ", ...)"};
      if (matches.size() == 1) entry = matches[0];
    }
    if (!entry)
      return Finding{Severity::error, 0, {}, file_name + ": names no texture of the template " + path_to_utf8(o.template_path.filename()),
                     "a name `boneyard texture` gives its textures (" + (names.empty() ? std::string("it has none") : names[0] + ", ...") +
                         "), 6 or 8 hex digits of an id, or a name whose StrCode24 is one",
                     "'" + file_name + "'"};
    if (auto [it, added] = taken.emplace(*entry, png_path); !added)
      return Finding{Severity::error, 0, {}, file_name + ": another PNG is for the same texture: " + path_to_utf8(it->second), {}, {}};
    auto data = FileData::open(png_path);
    if (!data) return data.error();
    auto png = texture::read_png(data.value()->bytes());
    if (!png) return in_file(path_to_utf8(png_path), png.error());
    texture::TriEdit edit;
    edit.entry = *entry;
    edit.label = texture_label(file_name, t.entries[*entry].id);
    const auto recorded = texture::tri_png_alpha(png->chunks);
    edit.alpha = o.alpha.value_or(recorded.value_or(texture::TriAlpha::raw));
    if (!o.alpha && !recorded && notes && alpha_above_ps2_opaque(png->image))
      notes->add(Severity::warning, 0, {},
                 edit.label + ": alpha above 0x80 and no trIa chunk (an image editor drops it): stored as it is, "
                              "above the PS2's opaque 0x80; if the PNG holds alpha scaled to 0..255, give --alpha scaled");
    if (o.alpha && recorded && *recorded != *o.alpha && notes)
      notes->add(Severity::warning, 0, {},
                 edit.label + ": its trIa chunk says its alpha is " + (*recorded == texture::TriAlpha::raw ? "raw" : "scaled") +
                     "; read as --alpha says");
    // Checked here, before the next image is read: the PNGs held at once stay within the textures' sizes.
    const auto rect = texture::tri_rect(t.entries[*entry]);
    if (rect && (png->image.width != rect->width || png->image.height != rect->height))
      return Finding{Severity::error, 0, {}, edit.label + ": the image is not the size of its texture in the .tri (crop or scale it to that size)",
                     std::to_string(rect->width) + "x" + std::to_string(rect->height),
                     std::to_string(png->image.width) + "x" + std::to_string(png->image.height)};
    edit.image = std::move(png->image);
    edits.push_back(std::move(edit));
  }
  auto bytes = texture::build_tri(t, edits, notes);
  if (!bytes) return bytes.error();
  if (auto ok = plan.check(); !ok) return ok;
  return write_file_atomic(output, bytes.value());
}

}  // namespace boneyard
