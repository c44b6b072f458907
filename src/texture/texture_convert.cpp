// Texture files to and from PNG (`boneyard texture`), and game textures as PNG for models.
#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/texture/dds_report.h"
#include "boneyard/texture/texture_convert.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <mutex>
#include <thread>

#include "boneyard/texture/ctxr.h"
#include "boneyard/texture/ctxr_report.h"
#include "boneyard/core/interrupt.h"

namespace boneyard::texture {

namespace fs = std::filesystem;

namespace {

// A parsed input file.
struct Source {
  TextureKind kind = TextureKind::png;
  std::shared_ptr<const FileData> file;
  std::optional<DdsFile> dds;
  std::optional<CtxrFile> ctxr;
  std::optional<PngFile> png;
  Diagnostics notes;  // the reader's findings: the cause when a level cannot be decoded
};

Result<Source> parse(std::shared_ptr<const FileData> file, std::string_view ext) {
  Source s;
  const auto kind = detect_texture(file->bytes(), ext);
  if (!kind)
    return Finding{Severity::error, 0, {}, "not a texture boneyard reads", "a .dds, .ctxr or .png file",
                   "unknown content (" + std::to_string(file->bytes().size()) + " bytes)"};
  s.kind = *kind;
  s.file = file;
  switch (*kind) {
    case TextureKind::dds: {
      auto d = read_dds(file, &s.notes);
      if (!d) return d.error();
      s.dds = std::move(d).value();
      break;
    }
    case TextureKind::ctxr: {
      auto c = read_ctxr(file, &s.notes);
      if (!c) return c.error();
      s.ctxr = std::move(c).value();
      break;
    }
    case TextureKind::png: {
      auto p = read_png(file->bytes());
      if (!p) return p.error();
      s.png = std::move(p).value();
      break;
    }
  }
  return s;
}

Result<Image> decode(const Source& s, unsigned face, unsigned mip) {
  switch (s.kind) {
    case TextureKind::dds: return decode_dds(*s.dds, face, mip);
    case TextureKind::ctxr: return decode_ctxr(*s.ctxr, mip);
    case TextureKind::png:
      if (mip != 0)
        return Finding{Severity::error, 0, {}, "a PNG has one level", "--mip 0", std::to_string(mip)};
      return s.png->image;
  }
  return Finding{};
}

// One image of the source (level `mip`, face `face`). When it cannot be decoded, the reader's
// first error says why (a truncated level, an unknown FourCC) better than "not stored".
Result<Image> image_of(const Source& s, unsigned face, unsigned mip) {
  auto im = decode(s, face, mip);
  if (im) return im;
  for (const auto& f : s.notes.findings())
    if (f.severity == Severity::error) return f;
  return im;
}

// Six faces in a horizontal cross, 4 faces wide and 3 high, as stored (no face is turned):
//        +Y
//   -X   +Z   +X   -Z
//        -Y
// Cells without a face stay transparent black.
Image cross_of(const std::vector<Image>& faces) {
  const std::uint32_t w = faces[0].width, h = faces[0].height;
  Image out;
  out.width = w * 4;
  out.height = h * 3;
  out.rgba.assign(std::size_t{out.width} * out.height * 4, 0);
  static constexpr int kCell[6][2] = {{2, 1}, {0, 1}, {1, 0}, {1, 2}, {1, 1}, {3, 1}};  // +X -X +Y -Y +Z -Z
  for (std::size_t f = 0; f < 6; ++f)
    for (std::uint32_t y = 0; y < h; ++y)
      std::copy_n(faces[f].rgba.data() + std::size_t{y} * w * 4, std::size_t{w} * 4,
                  out.rgba.data() + ((std::size_t{h} * kCell[f][1] + y) * out.width + std::size_t{w} * kCell[f][0]) * 4);
  return out;
}

struct Output {
  fs::path path;
  std::vector<std::uint8_t> bytes;  // for .dds/.ctxr (validated before writing)
  std::optional<Image> image;       // for .png (streamed into the file)
  std::vector<PngChunk> chunks;
};

Result<std::vector<Output>> png_outputs(const Source& s, const fs::path& out, const TextureConvertOptions& o) {
  std::vector<Output> outputs;
  const bool cube = s.kind == TextureKind::dds && s.dds->cube;
  if (!cube) {
    if (o.cross) return usage_error_finding("--cross applies only to cube maps");
    auto im = image_of(s, 0, o.mip);
    if (!im) return im.error();
    Output x{out, {}, std::move(im).value(), {}};
    if (s.kind == TextureKind::ctxr && o.mip == 0) x.chunks.push_back(ctxr_png_chunk(*s.ctxr));
    if (s.kind == TextureKind::png) x.chunks = s.png->chunks;
    outputs.push_back(std::move(x));
    return outputs;
  }
  std::vector<Image> faces;
  for (unsigned f = 0; f < s.dds->faces; ++f) {
    auto im = image_of(s, f, o.mip);
    if (!im) return im.error();
    faces.push_back(std::move(im).value());
  }
  if (o.cross) {
    if (faces.size() != 6)
      return Finding{Severity::error, 112, "caps2", "--cross needs all six faces", "6 faces", std::to_string(faces.size())};
    outputs.push_back({out, {}, cross_of(faces), {}});
    return outputs;
  }
  // Faces are named by the caps2 bits present, in file order.
  std::vector<unsigned> present;
  for (unsigned k = 0; k < 6; ++k)
    if (s.dds->header.dx10 || (s.dds->header.caps2 & (0x400u << k))) present.push_back(k);
  for (std::size_t i = 0; i < faces.size() && i < present.size(); ++i) {
    fs::path p = out;
    p.replace_filename(path_from_utf8(path_to_utf8(out.stem()) + "_" + std::string(kCubeFaceNames[present[i]]) +
                                      path_to_utf8(out.extension())));
    outputs.push_back({p, {}, std::move(faces[i]), {}});
  }
  return outputs;
}

Status check_written(const std::vector<std::uint8_t>& bytes, std::string_view ext) {
  auto file = FileData::from_vector(bytes);
  Diagnostics d;
  if (ext == ".dds") {
    auto r = read_dds(file, &d);
    if (!r) return r.error();
    d = validate_dds(r.value());
  } else {
    auto r = read_ctxr(file, &d);
    if (!r) return r.error();
    d = validate_ctxr(r.value());
  }
  for (const auto& f : d.findings())
    if (f.severity == Severity::error) {
      Finding e = f;
      e.message = "the written " + std::string(ext) + " would not validate: " + e.message;
      return e;
    }
  return {};
}

Result<std::vector<Output>> game_outputs(const Source& s, const fs::path& out, std::string_view ext,
                                         const TextureConvertOptions& o, Diagnostics* notes) {
  if (s.kind == TextureKind::dds && s.dds->cube)
    return usage_error_finding("a cube map converts only to PNG (six faces or --cross)");
  auto im = image_of(s, 0, o.mip);
  if (!im) return im.error();
  Result<std::vector<std::uint8_t>> bytes = std::vector<std::uint8_t>{};
  if (ext == ".dds") {
    bytes = build_dds(im.value(), DdsBuildOptions{o.format, o.mips});
  } else {
    const std::vector<PngChunk> none;
    bytes = build_ctxr(im.value(), s.kind == TextureKind::png ? s.png->chunks : none, CtxrBuildOptions{o.mips}, notes);
  }
  if (!bytes) return bytes.error();
  if (auto ok = check_written(bytes.value(), ext); !ok) return ok.error();
  std::vector<Output> outputs;
  outputs.push_back({out, std::move(bytes).value(), std::nullopt, {}});
  return outputs;
}

// Writes every output through a temporary file; renames them only when all were written, and
// takes back those already renamed when a later rename fails.
Status write_all(std::vector<Output>& outputs, const TextureConvertOptions& o, std::vector<fs::path>* written) {
  std::vector<std::unique_ptr<AtomicFile>> files;
  for (auto& x : outputs) {
    auto f = AtomicFile::create(x.path);
    if (!f) return f.error();
    Status s;
    if (x.image) {
      PngWriteOptions po;
      po.compression_level = o.png_level;
      po.chunks = std::move(x.chunks);
      s = write_png(*f.value(), *x.image, std::move(po));
      x.image.reset();  // the next face need not share memory with this one
    } else {
      s = f.value()->write(x.bytes);
    }
    if (!s) return s;
    files.push_back(std::move(f).value());
  }
  std::vector<fs::path> done;
  for (auto& f : files) {
    if (auto s = f->commit(); !s) {
      for (const auto& p : done) {
        std::error_code ec;
        fs::remove(p, ec);
      }
      return s;
    }
    done.push_back(f->path());
  }
  if (written) written->insert(written->end(), done.begin(), done.end());
  return {};
}

}  // namespace

std::optional<TextureKind> detect_texture(Bytes bytes, std::string_view extension) {
  if (sniff_dds(bytes, extension)) return TextureKind::dds;
  if (sniff_ctxr(bytes, extension)) return TextureKind::ctxr;
  if (is_png(bytes)) return TextureKind::png;
  return std::nullopt;
}

std::string_view texture_kind_name(TextureKind kind) {
  switch (kind) {
    case TextureKind::dds: return "dds";
    case TextureKind::ctxr: return "ctxr";
    case TextureKind::png: return "png";
  }
  return "?";
}

Status convert_texture(const fs::path& input, const fs::path& output, const TextureConvertOptions& o,
                       std::vector<fs::path>* written, Diagnostics* notes) {
  const std::string ext = lower_extension(path_to_utf8(output.filename()));
  if (ext != ".png" && ext != ".dds" && ext != ".ctxr")
    return usage_error_finding("the output must end in .png, .dds or .ctxr (found '" + path_to_utf8(output.filename()) + "')");
  if (o.format_given && ext != ".dds") return usage_error_finding("--format applies only to a .dds output");
  if (o.cross && ext != ".png") return usage_error_finding("--cross applies only to a .png output");
  if (!o.mips && ext == ".png") return usage_error_finding("--no-mips applies only to a .dds or .ctxr output");
  auto file = FileData::open(input);
  if (!file) return file.error();
  auto source = parse(std::move(file).value(), lower_extension(path_to_utf8(input.filename())));
  if (!source) return source.error();
  auto outputs = ext == ".png" ? png_outputs(source.value(), output, o) : game_outputs(source.value(), output, ext, o, notes);
  if (!outputs) return outputs.error();
  return write_all(outputs.value(), o, written);
}

std::vector<TextureBatchItem> convert_textures(const std::vector<fs::path>& inputs, const fs::path& output_dir,
                                               std::string_view extension, const TextureConvertOptions& o,
                                               unsigned threads, const std::function<void(const TextureBatchItem&)>& progress) {
  std::vector<TextureBatchItem> items;
  const bool to_png = extension == ".png";
  for (const auto& in : inputs) {
    std::error_code ec;
    if (!fs::is_directory(in, ec)) {
      fs::path out = output_dir / in.filename();
      out.replace_extension(path_from_utf8(extension));
      items.push_back({in, out, {}, {}});
      continue;
    }
    std::vector<fs::path> found;
    for (fs::recursive_directory_iterator it(in, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      const std::string e = lower_extension(path_to_utf8(it->path().filename()));
      if (to_png ? (e == ".dds" || e == ".ctxr") : e == ".png") found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    for (const auto& p : found) {
      fs::path out = output_dir / p.lexically_relative(in);
      out.replace_extension(path_from_utf8(extension));
      items.push_back({p, out, {}, {}});
    }
  }
  std::atomic<std::size_t> next{0};
  std::mutex report;
  auto worker = [&] {
    for (std::size_t i; !interrupted() && (i = next.fetch_add(1)) < items.size();) {
      TextureBatchItem& item = items[i];
      std::error_code ec;
      fs::create_directories(item.output.parent_path(), ec);
      try {
        item.status = convert_texture(item.input, item.output, o, nullptr, &item.notes);
      } catch (const std::exception& e) {  // bad_alloc on a hostile file: this item fails alone
        item.status = Finding{Severity::error, 0, {}, std::string("internal error: ") + e.what(), {}, {}};
      }
      std::lock_guard lock(report);
      if (progress) progress(item);
    }
  };
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(items.size(), 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return items;
}

Result<PngTexture> texture_as_png(Bytes bytes, std::string_view extension) {
  auto source = parse(FileData::from_view(bytes, nullptr), extension);
  if (!source) return source.error();
  const Source& s = source.value();
  PngTexture out;
  out.source = s.kind;
  if (s.kind == TextureKind::png) {
    out.png.assign(bytes.begin(), bytes.end());
    out.width = s.png->image.width;
    out.height = s.png->image.height;
    out.alpha = alpha_kind(s.png->image);
    return out;
  }
  if (s.kind == TextureKind::dds && s.dds->cube)
    return Finding{Severity::error, 112, "caps2", "a cube map is not a model texture (left out)", "a 2-D texture", "cube map"};
  auto im = image_of(s, 0, 0);
  if (!im) return im.error();
  out.width = im->width;
  out.height = im->height;
  out.alpha = alpha_kind(im.value());
  auto png = encode_png(im.value());
  if (!png) return png.error();
  out.png = std::move(png).value();
  return out;
}

}  // namespace boneyard::texture
