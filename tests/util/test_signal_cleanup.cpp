// The signal handler's cleanup of a directory with its files (util/signal_cleanup.h): a child
// process registers a directory, writes more files into it than the handler has slots (1024), and
// is ended by SIGTERM; the directory must be gone. A directory registered alone (its files not)
// stays, which shows the check can fail.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>

#include "util/signal_cleanup.h"

namespace {

// Forks a child that makes `dir` with `files` files, registers it (with_files or plain) and
// raises SIGTERM. Returns whether the child ended by SIGTERM.
bool child_fills_and_dies(const std::string& dir, int files, bool with_files) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::signal(SIGTERM, SIG_DFL);  // doctest's crash handler, inherited from the test process
    cz::install_cleanup_handlers();
    if (::mkdir(dir.c_str(), 0755) != 0) ::_exit(3);
    if ((with_files ? cz::register_cleanup_dir_with_files(dir) : cz::register_cleanup_path(dir, true)) < 0) ::_exit(4);
    for (int i = 0; i < files; ++i) {
      const std::string f = dir + "/solved-" + std::to_string(i) + ".drat";
      std::FILE* fp = std::fopen(f.c_str(), "w");
      if (!fp) ::_exit(5);
      std::fputs("x", fp);
      std::fclose(fp);
    }
    ::raise(SIGTERM);
    ::_exit(6);  // not reached: the handler re-raises with the default action
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM;
}

}  // namespace

TEST_CASE("SIGTERM removes a registered directory and every file in it, past the handler's 1024 slots") {
  namespace fs = std::filesystem;
  const fs::path base = fs::temp_directory_path() / ("cz-cleanup-test-" + std::to_string(::getpid()));
  fs::create_directories(base);
  const std::string with = (base / "with-files.tmp").string(), plain = (base / "plain.tmp").string();
  CHECK(child_fills_and_dies(with, 3000, true));
  CHECK_FALSE(fs::exists(with));
  CHECK(child_fills_and_dies(plain, 10, false));  // files not registered: rmdir fails, it stays
  CHECK(fs::exists(plain));
  fs::remove_all(base);
}
