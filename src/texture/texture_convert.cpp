// Textures to and from PNG (`boneyard texture`; the registry reads and writes the files), and game
// textures as PNG for models.
#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/texture/dds/dds_report.h"
#include "boneyard/texture/texture_convert.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "boneyard/texture/ctxr/ctxr.h"
#include "boneyard/texture/ctxr/ctxr_report.h"

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

// The reader's first error, when there is one: it says why a level cannot be decoded (a
// truncated level, an unknown FourCC) better than "not stored".
Finding reader_error_or(const Source& s, Finding f) {
  for (const auto& n : s.notes.findings())
    if (n.severity == Severity::error) return n;
  return f;
}

// One image of the source (level `mip`, face `face`). A PNG's image is handed over, not copied
// (each conversion takes it once).
Result<Image> image_of(Source& s, unsigned face, unsigned mip) {
  Result<Image> im = Finding{};
  switch (s.kind) {
    case TextureKind::dds: im = decode_dds(*s.dds, face, mip); break;
    case TextureKind::ctxr: im = decode_ctxr(*s.ctxr, mip); break;
    case TextureKind::png:
      if (mip != 0) return Finding{Severity::error, 0, {}, "a PNG has one level", "--mip 0", std::to_string(mip)};
      return std::move(s.png->image);
  }
  if (im) return im;
  return reader_error_or(s, im.error());
}

// Six faces in a horizontal cross, 4 faces wide and 3 high, as stored (no face is turned):
//        +Y
//   -X   +Z   +X   -Z
//        -Y
// Cells without a face stay transparent black. The faces are decoded one at a time into it.
Result<Image> cross_of(Source& s, unsigned mip) {
  const DdsLevel* first = s.dds->level(0, mip);
  const std::uint32_t w = first->width, h = first->height;
  if (auto ok = check_decoded_pixels(std::uint64_t{w} * 4, std::uint64_t{h} * 3, 12, "cross of level " + std::to_string(mip));
      !ok)
    return ok.error();
  Image out;
  out.width = w * 4;
  out.height = h * 3;
  out.rgba.assign(std::size_t{out.width} * out.height * 4, 0);
  static constexpr int kCell[6][2] = {{2, 1}, {0, 1}, {1, 0}, {1, 2}, {1, 1}, {3, 1}};  // +X -X +Y -Y +Z -Z
  for (unsigned f = 0; f < 6; ++f) {
    auto face = image_of(s, f, mip);
    if (!face) return face.error();
    for (std::uint32_t y = 0; y < h; ++y)
      std::copy_n(face->rgba.data() + std::size_t{y} * w * 4, std::size_t{w} * 4,
                  out.rgba.data() + ((std::size_t{h} * kCell[f][1] + y) * out.width + std::size_t{w} * kCell[f][0]) * 4);
  }
  return out;
}

Result<std::vector<TextureOutput>> png_outputs(const std::shared_ptr<Source>& source, const fs::path& out, const TextureConvertOptions& o) {
  Source& s = *source;
  std::vector<TextureOutput> outputs;
  const bool cube = s.kind == TextureKind::dds && s.dds->cube;
  if (!cube) {
    if (o.cross) return usage_error_finding("--cross applies only to cube maps");
    auto im = image_of(s, 0, o.mip);
    if (!im) return im.error();
    auto shared = std::make_shared<Image>(std::move(im).value());
    TextureOutput x{out, {}, [shared]() -> Result<Image> { return std::move(*shared); }, {}};
    if (s.kind == TextureKind::ctxr && o.mip == 0) x.chunks.push_back(ctxr_png_chunk(*s.ctxr));
    if (s.kind == TextureKind::png) x.chunks = s.png->chunks;
    outputs.push_back(std::move(x));
    return outputs;
  }
  // Every face is checked before anything is decoded or written: all six or nothing.
  for (unsigned f = 0; f < s.dds->faces; ++f)
    if (auto ok = check_decodable(*s.dds, f, o.mip); !ok) return reader_error_or(s, ok.error());
  if (o.cross) {
    if (s.dds->faces != 6)
      return Finding{Severity::error, 112, "caps2", "--cross needs all six faces", "6 faces", std::to_string(s.dds->faces)};
    auto cross = cross_of(s, o.mip);
    if (!cross) return cross.error();
    auto shared = std::make_shared<Image>(std::move(cross).value());
    outputs.push_back({out, {}, [shared]() -> Result<Image> { return std::move(*shared); }, {}});
    return outputs;
  }
  // Faces are named by the caps2 bits present, in file order.
  std::vector<unsigned> present;
  for (unsigned k = 0; k < 6; ++k)
    if (s.dds->header.dx10 || (s.dds->header.caps2 & (0x400u << k))) present.push_back(k);
  for (unsigned i = 0; i < s.dds->faces && i < present.size(); ++i) {
    fs::path p = out;
    p.replace_filename(path_from_utf8(path_to_utf8(out.stem()) + "_" + std::string(kCubeFaceNames[present[i]]) +
                                      path_to_utf8(out.extension())));
    outputs.push_back({p, {}, [source, i, mip = o.mip] { return image_of(*source, i, mip); }, {}});
  }
  return outputs;
}

// Reads the written bytes back and validates them; they are not copied (the file shares them).
Status check_written(const std::shared_ptr<const FileData>& file, std::string_view ext) {
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

Result<std::vector<TextureOutput>> game_outputs(Source& s, const fs::path& out, std::string_view ext,
                                         const TextureConvertOptions& o, Diagnostics* notes) {
  if (s.kind == TextureKind::dds && s.dds->cube)
    return usage_error_finding("a cube map converts only to PNG (six faces or --cross)");
  Result<std::vector<std::uint8_t>> bytes = std::vector<std::uint8_t>{};
  {
    auto im = image_of(s, 0, o.mip);
    if (!im) return im.error();
    if (ext == ".dds") {
      bytes = build_dds(im.value(), DdsBuildOptions{o.format, o.mips});
    } else {
      const std::vector<PngChunk> none;
      bytes = build_ctxr(im.value(), s.kind == TextureKind::png ? s.png->chunks : none, CtxrBuildOptions{o.mips}, notes);
    }
  }  // the image is let go before the output is checked and written
  if (!bytes) return bytes.error();
  auto file = FileData::from_vector(std::move(bytes).value());
  if (auto ok = check_written(file, ext); !ok) return ok.error();
  std::vector<TextureOutput> outputs;
  outputs.push_back({out, std::move(file), {}, {}});
  return outputs;
}

}  // namespace

DecodeBudget::Hold DecodeBudget::acquire(std::uint64_t bytes) {
  bytes = std::min(bytes, limit_);
  std::unique_lock lock(mutex_);
  released_.wait(lock, [&] { return held_ == 0 || held_ + bytes <= limit_; });
  held_ += bytes;
  return Hold(this, bytes);
}

DecodeBudget::Hold::~Hold() {
  if (!budget_) return;
  {
    std::lock_guard lock(budget_->mutex_);
    budget_->held_ -= bytes_;
  }
  budget_->released_.notify_all();
}

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

Status check_texture_output(const fs::path& output, const TextureConvertOptions& o) {
  const std::string ext = lower_extension(path_to_utf8(output.filename()));
  if (ext != ".png" && ext != ".dds" && ext != ".ctxr")
    return usage_error_finding("the output must end in .png, .dds or .ctxr (found '" + path_to_utf8(output.filename()) + "')");
  if (o.format_given && ext != ".dds") return usage_error_finding("--format applies only to a .dds output");
  if (o.cross && ext != ".png") return usage_error_finding("--cross applies only to a .png output");
  if (!o.mips && ext == ".png") return usage_error_finding("--no-mips applies only to a .dds or .ctxr output");
  return {};
}

Result<std::vector<TextureOutput>> texture_outputs(std::shared_ptr<const FileData> input, std::string_view input_extension,
                                                   const fs::path& output, const TextureConvertOptions& o,
                                                   Diagnostics* notes) {
  if (auto fits = check_texture_output(output, o); !fits) return fits.error();
  auto source = parse(std::move(input), input_extension);
  if (!source) return source.error();
  const std::string ext = lower_extension(path_to_utf8(output.filename()));
  // A PNG output's image is made from the source while its file is written: the outputs share it.
  auto shared = std::make_shared<Source>(std::move(source).value());
  return ext == ".png" ? png_outputs(shared, output, o) : game_outputs(*shared, output, ext, o, notes);
}

Status write_texture_output(TextureOutput& output, ByteSink& out, const TextureConvertOptions& o) {
  if (!output.image) return out.write(output.bytes->bytes());
  auto image = output.image();  // decoded now, let go before the next output's
  output.image = nullptr;
  if (!image) return image.error();
  PngWriteOptions po;
  po.compression_level = o.png_level;
  po.chunks = std::move(output.chunks);
  return write_png(out, image.value(), std::move(po));
}

Result<PngTexture> texture_as_png(Bytes bytes, std::string_view extension) {
  auto source = parse(FileData::from_view(bytes, nullptr), extension);
  if (!source) return source.error();
  Source& s = source.value();
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

std::uint64_t texture_decoded_bytes(Bytes bytes, std::string_view extension) {
  const auto kind = detect_texture(bytes, extension);
  if (!kind) return 0;
  auto be = [&](std::size_t at, int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i) v = v << 8 | bytes[at + static_cast<std::size_t>(i)];
    return v;
  };
  std::uint64_t w = 0, h = 0;
  switch (*kind) {
    case TextureKind::dds:
      if (bytes.size() >= 20) h = load_le<std::uint32_t>(bytes.data() + 12), w = load_le<std::uint32_t>(bytes.data() + 16);
      break;
    case TextureKind::ctxr:
      if (bytes.size() >= 12) w = be(8, 2), h = be(10, 2);
      break;
    case TextureKind::png:
      if (bytes.size() >= 24 && std::memcmp(bytes.data() + 12, "IHDR", 4) == 0) w = be(16, 4), h = be(20, 4);
      break;
  }
  if (w > kMaxDimension || h > kMaxDimension) return 0;  // refused before anything is decoded
  return w * h * 4;
}

}  // namespace boneyard::texture
