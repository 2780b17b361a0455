// Exact arithmetic from the installed core alone: 1/3 + 1/6 = 1/2.
#include <iostream>

#include <circuitzoo/exact/rational.h>

int main() {
  const cz::Rat x = cz::Rat(1) / cz::Rat(3) + cz::Rat(1) / cz::Rat(6);
  std::cout << "core: 1/3 + 1/6 = " << x.num().to_int64() << "/" << x.den().to_int64() << "\n";
  return x.num().to_int64() == 1 && x.den().to_int64() == 2 ? 0 : 1;
}
