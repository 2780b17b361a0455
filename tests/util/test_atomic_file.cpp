// util/atomic_file.h and util/text.h (escape_bytes): outputs are replaced atomically or written through, never
// half-written, never a device or FIFO replaced; two outputs all or nothing; inputs refuse what
// is not a file.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/text.h"

namespace fs = std::filesystem;
using namespace cz;

namespace {
struct TempDir {
  fs::path dir;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "cz_atomic_XXXXXX").string();
    REQUIRE(::mkdtemp(t.data()) != nullptr);
    dir = t;
  }
  ~TempDir() { fs::remove_all(dir); }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
  std::vector<std::string> names() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
};
std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("write_file_atomic creates and replaces a regular file and leaves no temporary file") {
  TempDir d;
  write_file_atomic(d / "a.txt", "one");
  CHECK(slurp(d / "a.txt") == "one");
  ::chmod((d / "a.txt").c_str(), 0640);
  write_file_atomic(d / "a.txt", "two");
  CHECK(slurp(d / "a.txt") == "two");
  struct stat st {};
  REQUIRE(::stat((d / "a.txt").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);  // an existing file keeps its permission bits
  CHECK(d.names() == std::vector<std::string>{"a.txt"});
}

TEST_CASE("write_file_atomic replaces the target of a symlink and keeps the link") {
  TempDir d;
  write_file_atomic(d / "target", "old");
  fs::create_symlink("target", d / "link");
  write_file_atomic(d / "link", "new");
  CHECK(fs::is_symlink(d / "link"));
  CHECK(slurp(d / "target") == "new");
  CHECK(d.names() == std::vector<std::string>{"link", "target"});
}

TEST_CASE("write_file_atomic writes through /dev/null and refuses directories and dangling links") {
  TempDir d;
  write_file_atomic("/dev/null", "x");
  struct stat st {};
  REQUIRE(::stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  CHECK_THROWS_AS(write_file_atomic(d.dir.string(), "x"), InputError);
  fs::create_symlink("nowhere", d / "dangling");
  CHECK_THROWS_AS(write_file_atomic(d / "dangling", "x"), InputError);
  CHECK_THROWS_AS(write_file_atomic("", "x"), InputError);
  CHECK(d.names() == std::vector<std::string>{"dangling"});
}

TEST_CASE("write_file_atomic writes through a FIFO without replacing it") {
  TempDir d;
  const std::string f = d / "fifo";
  REQUIRE(::mkfifo(f.c_str(), 0600) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {  // reader
    std::string got = slurp(f);
    ::_exit(got == "through a pipe" ? 0 : 1);
  }
  write_file_atomic(f, "through a pipe");
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(fs::is_fifo(f));
}

TEST_CASE("write_files_atomic is all or nothing and refuses one file named twice") {
  TempDir d;
  CHECK_THROWS_AS(write_files_atomic({{d / "a", "A", "--inputs"}, {d / "no/dir/b", "B", "--labels"}}), InputError);
  CHECK(d.names().empty());
  CHECK_THROWS_AS(write_files_atomic({{d / "a", "A", "--inputs"}, {"/dev/full", "B", "--labels"}}), InputError);
  CHECK(d.names().empty());
  CHECK_THROWS_AS(write_files_atomic({{d / "x", "A", "--inputs"}, {(d.dir / "." / "x").string(), "B", "--labels"}}), InputError);
  CHECK(d.names().empty());
  write_files_atomic({{d / "a", "A", "--inputs"}, {d / "b", "B", "--labels"}});
  CHECK(slurp(d / "a") == "A");
  CHECK(slurp(d / "b") == "B");
  CHECK(d.names() == std::vector<std::string>{"a", "b"});
}

TEST_CASE("check_output_paths refuses an output that is an input, also through a link") {
  TempDir d;
  write_file_atomic(d / "in.json", "{}");
  fs::create_symlink("in.json", d / "alias.json");
  CHECK_THROWS_AS(check_output_paths({{"--json", d / "alias.json"}}, {{"--input", d / "in.json"}}), InputError);
  CHECK_THROWS_AS(check_output_paths({{"--json", (d.dir / "." / "in.json").string()}}, {{"--input", d / "in.json"}}), InputError);
  CHECK_THROWS_AS(check_output_paths({{"--json", "-"}, {"--csv", "-"}}, {}), InputError);
  CHECK_NOTHROW(check_output_paths({{"--json", d / "out.json"}, {"--csv", "/dev/null"}}, {{"--input", d / "in.json"}}));
  CHECK_NOTHROW(check_output_paths({{"--json", "/dev/null"}, {"--csv", "/dev/null"}}, {}));
}

TEST_CASE("read_file refuses directories and devices and reads regular files") {
  TempDir d;
  write_file_atomic(d / "f", std::string("a\0b", 3));
  CHECK(read_file(d / "f") == std::string("a\0b", 3));
  CHECK_THROWS_WITH_AS(read_file(d.dir.string()), "is a directory, not a file", InputError);
  CHECK_THROWS_AS(read_file("/dev/zero"), InputError);
  CHECK_THROWS_AS(read_file(d / "missing"), InputError);
}

TEST_CASE("escape_bytes escapes control bytes and invalid UTF-8 and keeps valid UTF-8") {
  CHECK(escape_bytes("plain") == "plain");
  CHECK(escape_bytes(std::string("a\nb\x01\x7f", 5)) == "a\\x0ab\\x01\\x7f");
  CHECK(escape_bytes("\xff\xfe") == "\\xff\\xfe");
  CHECK(escape_bytes("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(escape_bytes("\xc3") == "\\xc3");          // truncated sequence
  CHECK(escape_bytes("\xc0\xaf") == "\\xc0\\xaf");  // overlong
  CHECK(escape_bytes("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // surrogate
}
