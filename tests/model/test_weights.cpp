// model/weights.h: int64 tensors named after zoology's BaseConv, safetensors and .npz bytes.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "constructions/primitives/builders.h"
#include "model/weights.h"
#include "util/error.h"

using namespace cz;

namespace {
Model one_layer() {
  Model m = build::shell(3, 2, ConvMode::Causal);
  BaseConvLayer L = zero_baseconv(m);
  L.W(0, 1) = Rat(5);  // u·W: input channel 0 feeds output channel 1
  L.h(2, 0) = Rat(-7);  // tap 2 of channel 0
  L.b1(1, 1) = Rat(3);
  L.b2(0, 0) = Rat(INT64_MAX);
  m.layers.push_back(L);
  return m;
}
std::uint64_t le(const std::string& s, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(s[at + k]);
  return v;
}
}  // namespace

TEST_CASE("weights: names, transposes and metadata follow the documented layout") {
  ModelTensors t = model_tensors(one_layer());
  REQUIRE(t.tensors.size() == 4);
  CHECK(t.tensors[0].name == "layers.0.projection.weight");
  CHECK(t.tensors[0].data[1 * 2 + 0] == 5);  // weight = Wᵀ: [out=1][in=0]
  CHECK(t.tensors[2].name == "layers.0.conv.filter");
  CHECK(t.tensors[2].shape == std::vector<std::size_t>{2, 3});
  CHECK(t.tensors[2].data[0 * 3 + 2] == -7);  // filter[c=0][k=2]
  CHECK(t.tensors[1].data[1 * 2 + 1] == 3);
  CHECK(t.tensors[3].data[0] == INT64_MAX);
  CHECK(t.metadata.at("residual") == "none");
  CHECK(t.metadata.at("conv") == "causal");
  CHECK(t.metadata.at("layers") == "baseconv");
}

TEST_CASE("weights: a non-integer or an over-int64 entry is refused with its place") {
  Model m = one_layer();
  std::get<BaseConvLayer>(m.layers[0]).b2(2, 1) = Rat(Int(1), Int(2));
  CHECK_THROWS_WITH_AS(model_tensors(m), doctest::Contains("is not an integer"), InputError);
  Model big = one_layer();
  std::get<BaseConvLayer>(big.layers[0]).W(1, 0) = Rat(*Int::parse("9223372036854775808"));
  try {
    model_tensors(big);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("does not fit int64") != std::string::npos);
    CHECK(e.where == "model.layers[0].W");
  }
}

TEST_CASE("weights: safetensors header length, offsets and little-endian data") {
  std::string s = to_safetensors(model_tensors(one_layer()));
  const std::size_t n = le(s, 0, 8);
  CHECK(n % 8 == 0);
  auto h = nlohmann::json::parse(s.substr(8, n));
  CHECK(h["__metadata__"]["format"] == "circuitzoo.weights/1");
  const auto& f = h["layers.0.conv.filter"];
  CHECK(f["dtype"] == "I64");
  const std::size_t off = f["data_offsets"][0].get<std::size_t>();
  CHECK(static_cast<std::int64_t>(le(s, 8 + n + off + 2 * 8, 8)) == -7);
  CHECK(s.size() == 8 + n + h["layers.0.conv.bias"]["data_offsets"][1].get<std::size_t>());
}

TEST_CASE("weights: npz is a stored zip whose entries are .npy files") {
  CHECK(crc32("123456789") == 0xCBF43926u);
  std::string z = to_npz(model_tensors(one_layer()));
  CHECK(le(z, 0, 4) == 0x04034b50u);
  CHECK(le(z, z.size() - 22, 4) == 0x06054b50u);
  CHECK(le(z, z.size() - 22 + 10, 2) == 5);  // 4 tensors + __metadata__
  const std::size_t name_len = le(z, 26, 2);
  CHECK(z.substr(30, name_len) == "layers.0.projection.weight.npy");
  CHECK(z.substr(30 + name_len, 6) == "\x93NUMPY");
  std::string npy = npy_bytes_i64({2, 2}, {1, 2, 3, 4});
  CHECK((npy.size() - 32) % 64 == 0);  // header padded to a multiple of 64, then 4 int64s
  CHECK(npy.substr(npy.size() - 8) == std::string("\x04\0\0\0\0\0\0\0", 8));
  CHECK(npy.find("'shape': (2, 2)") != std::string::npos);
}

namespace {
std::uint64_t le64(const std::string& s, std::size_t at) {
  std::uint64_t v = 0;
  for (int k = 7; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<std::size_t>(k)]);
  return v;
}
}  // namespace

// issue 39: past 4 GiB the .npz carries zip64 records. zip64_from = 0 sends a small archive through
// that path; Python's zipfile (and numpy, when importable) must read it back as the plain one.
TEST_CASE("weights: npz through the zip64 path reads back in Python") {
  const ModelTensors t = model_tensors(one_layer());
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& x : t.tensors) files.emplace_back(x.name + ".npy", npy_bytes_i64(x.shape, x.data));
  const std::string plain = zip_stored(files), z64 = zip_stored(files, 0);
  CHECK(plain.find(std::string("\x50\x4b\x06\x06", 4)) == std::string::npos);  // no zip64 below 4 GiB
  CHECK(to_npz(t).find(std::string("\x50\x4b\x06\x06", 4)) == std::string::npos);
  const std::size_t eocd = z64.size() - 22, locator = eocd - 20;
  REQUIRE(le(z64, eocd, 4) == 0x06054b50u);
  CHECK(le(z64, eocd + 10, 2) == 0xFFFFu);
  CHECK(le(z64, eocd + 16, 4) == 0xFFFFFFFFu);
  REQUIRE(le(z64, locator, 4) == 0x07064b50u);
  const std::size_t record = le64(z64, locator + 8);
  REQUIRE(le(z64, record, 4) == 0x06064b50u);
  CHECK(le64(z64, record + 32) == files.size());
  CHECK(le(z64, 18, 4) == 0xFFFFFFFFu);  // first local header: sizes in the zip64 extra field
  CHECK(le64(z64, 30 + files[0].first.size() + 4) == files[0].second.size());

  const auto dir = std::filesystem::temp_directory_path() / ("cz-zip64-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "z64.npz", std::ios::binary) << z64;
    std::ofstream(dir / "plain.npz", std::ios::binary) << plain;
    std::ofstream(dir / "read.py") << R"(import sys, zipfile
a, b = (zipfile.ZipFile(p) for p in sys.argv[1:3])
assert [i.filename for i in a.infolist()] == [i.filename for i in b.infolist()], a.namelist()
assert all(a.read(n) == b.read(n) for n in b.namelist())
assert a.testzip() is None
try:
    import numpy
except ImportError:
    sys.exit(0)
x = numpy.load(sys.argv[1])
assert int(x["layers.0.conv.filter"][0, 2]) == -7, x["layers.0.conv.filter"]
assert int(x["layers.0.conv.bias"][0, 0]) == 2**63 - 1
)";
  }
  const std::string python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const int has = std::system((python + " -c pass >/dev/null 2>&1").c_str());
  if (has != 0) {
    MESSAGE("no python3: the zip64 archive is checked by its bytes only");
  } else {
    const std::string cmd = python + " " + (dir / "read.py").string() + " " + (dir / "z64.npz").string() + " " +
                            (dir / "plain.npz").string();
    CHECK(std::system(cmd.c_str()) == 0);
  }
  std::filesystem::remove_all(dir);
}
