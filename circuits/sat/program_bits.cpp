#include "circuits/sat/program_bits.h"

#include <cstdint>
#include <limits>

namespace cz::circuits::sat {

namespace g = gadgets;

namespace {

const Int kMin(std::numeric_limits<std::int64_t>::min()), kMax(std::numeric_limits<std::int64_t>::max());

Int pow2(std::size_t k) {
  Int p(1);
  for (std::size_t t = 0; t < k; ++t) p *= Int(2);
  return p;
}

struct Slot {
  Wire valid;
  Word word;
};

class Unroller {
 public:
  Unroller(WordBuilder& wb, const prog::Ast& ast, std::size_t rows, std::size_t d, const std::vector<Wire>& cells)
      : wb_(wb), b_(wb.builder()), ast_(ast), rows_(rows), d_(d), cells_(cells) {
    fails_ = b_.zero();
  }

  UnrolledProgram run() {
    UnrolledProgram out;
    if (!init()) {  // the interpreter throws before the first row: every input of this length fails
      out.fails = b_.one();
      return out;
    }
    for (i_ = 0; i_ < rows_; ++i_) {
      const Word w = eval(ast_.out_width, b_.one());
      if (!w.is_const()) throw ProgramNotBlastable("out_width depends on the input");
      if (w.lo < Int(0) || Int(1024) < w.lo) {
        out.fails = b_.one();
        return out;
      }
      width_ = static_cast<std::size_t>(w.lo.to_int64());
      if (i_ == 0) out.out_width = width_;
      if (width_ != out.out_width) throw ProgramNotBlastable("out_width changes with the row");
      row_.assign(width_, b_.zero());
      exec(ast_.step, b_.one());
      out.nonzero.push_back(row_);
    }
    out.fails = fails_;
    for (const auto& bag : bags_) out.slots += bag.size();
    return out;
  }

 private:
  // Registers' and bags' widths and inits: constants of (rows, d), evaluated by the same code.
  bool init() {
    for (const auto& r : ast_.registers) {
      const Word w = eval(r.width, b_.one()), v = eval(r.init, b_.one());
      if (!w.is_const() || !v.is_const()) throw ProgramNotBlastable("a register's width or init depends on the input");
      if (w.lo < Int(0) || Int(64) < w.lo || v.lo < Int(0)) return false;
      const std::size_t width = static_cast<std::size_t>(w.lo.to_int64());
      if (!(v.lo < pow2(width))) return false;  // RecurrentState::add_register checks the init fits
      reg_width_.push_back(width);
      regs_.push_back(v);
    }
    for (const auto& bg : ast_.bags) {
      const Word w = eval(bg.width, b_.one());
      if (!w.is_const()) throw ProgramNotBlastable("a bag's width depends on the input");
      if (w.lo < Int(0) || Int(64) < w.lo) return false;
      bag_width_.push_back(static_cast<std::size_t>(w.lo.to_int64()));
      bags_.emplace_back();
    }
    return fails_ == b_.zero();
  }

  void fail_if(Wire pc, Wire cond) { fails_ = g::or_(b_, fails_, g::and_(b_, pc, cond)); }

  Word checked(Word w) {
    if (w.lo < kMin || kMax < w.hi)
      throw ProgramNotBlastable("a value's certified interval [" + w.lo.str() + ", " + w.hi.str() +
                                "] leaves int64 (the interpreter's overflow check is not decided by intervals)");
    return w;
  }

  Wire bit_of(const Word& w, std::size_t k) {
    if (w.bits.empty()) return b_.zero();
    return k < w.bits.size() ? w.bits[k] : w.bits.back();
  }
  Wire lt(const Word& a, const Word& c) {
    const Word diff = wb_.sub(a, c);
    if (diff.is_const()) return diff.lo < Int(0) ? b_.one() : b_.zero();
    if (!(diff.lo < Int(0))) return b_.zero();
    if (!(diff.hi < Int(0))) return diff.bits.back();
    return b_.one();
  }
  Wire nonzero(const Word& a) { return g::not_(b_, wb_.equal(a, wb_.constant(Int(0)))); }
  Word bool_word(Wire w) { return wb_.from_bit(w); }
  // [0 <= v < 2^width]
  Wire fits(const Word& v, std::size_t width) {
    return g::and_(b_, g::not_(b_, lt(v, wb_.constant(Int(0)))), lt(v, wb_.constant(pow2(width))));
  }
  // The low `width` bits of v as a non-negative word (its value when v fits).
  Word low(const Word& v, std::size_t width) {
    if (width == 0) return wb_.constant(Int(0));
    g::Bits bits;
    for (std::size_t k = 0; k < width; ++k) bits.push_back(bit_of(v, k));
    bits.push_back(b_.zero());
    return wb_.from_bits(bits, Int(0), pow2(width) - Int(1));
  }
  Word mux(Wire s, const Word& a, const Word& c, std::size_t width) {
    const Word x = low(a, width), y = low(c, width);
    g::Bits bits;
    for (std::size_t k = 0; k < width; ++k) bits.push_back(g::mux(b_, s, bit_of(x, k), bit_of(y, k)));
    if (width == 0) return wb_.constant(Int(0));
    bits.push_back(b_.zero());
    return wb_.from_bits(bits, Int(0), pow2(width) - Int(1));
  }
  Wire cell(std::size_t col) { return cells_[i_ * d_ + col]; }

  Word eval(const prog::Expr& e, Wire pc) {
    using E = prog::Expr;
    switch (e.kind) {
      case E::Const: return wb_.constant(Int(e.value));
      case E::I: return wb_.constant(Int(static_cast<std::int64_t>(i_)));
      case E::Rows: return wb_.constant(Int(static_cast<std::int64_t>(rows_)));
      case E::D: return wb_.constant(Int(static_cast<std::int64_t>(d_)));
      case E::Reg: return regs_.at(e.index);
      case E::Col:
        if (e.index >= d_) {
          fail_if(pc, b_.one());
          return wb_.constant(Int(0));
        }
        return wb_.from_bit(cell(e.index));
      case E::Word: {
        if (e.len > 0 && e.lo + e.len > d_) {  // the interpreter reads (and throws) only when len > 0
          fail_if(pc, b_.one());
          return wb_.constant(Int(0));
        }
        if (e.len == 0) return wb_.constant(Int(0));
        g::Bits bits;
        for (std::size_t k = 0; k < e.len; ++k) bits.push_back(cell(e.lo + k));
        bits.push_back(b_.zero());
        return wb_.from_bits(bits, Int(0), pow2(e.len) - Int(1));
      }
      case E::In: {
        const Word w = eval(e.args[0], pc);
        std::vector<Wire> hit;
        for (const Slot& s : bags_.at(e.index)) hit.push_back(g::and_(b_, s.valid, wb_.equal(w, s.word)));
        return bool_word(g::and_(b_, g::not_(b_, lt(w, wb_.constant(Int(0)))), g::or_all(b_, hit)));
      }
      case E::BitsFor: {
        const Word v = eval(e.args[0], pc);
        Word r = wb_.constant(Int(0));  // bits_for(v) = #{k >= 0 : 2^k < v} (0 for v <= 1)
        for (std::size_t k = 0; k < 64 && pow2(k) < v.hi; ++k) r = wb_.add(r, bool_word(lt(wb_.constant(pow2(k)), v)));
        return r;
      }
      case E::Not: return bool_word(g::not_(b_, nonzero(eval(e.args[0], pc))));
      case E::Bin: {
        const Word a = eval(e.args[0], pc), c = eval(e.args[1], pc);
        const std::string& op = e.op;
        if (op == "add") return checked(wb_.add(a, c));
        if (op == "sub") return checked(wb_.sub(a, c));
        if (op == "mul") return checked(wb_.mul(a, c));
        if (op == "div") return div(a, c, pc);
        if (op == "eq") return bool_word(wb_.equal(a, c));
        if (op == "ne") return bool_word(g::not_(b_, wb_.equal(a, c)));
        if (op == "lt") return bool_word(lt(a, c));
        if (op == "le") return bool_word(g::not_(b_, lt(c, a)));
        if (op == "gt") return bool_word(lt(c, a));
        if (op == "ge") return bool_word(g::not_(b_, lt(a, c)));
        if (op == "and") return bool_word(g::and_(b_, nonzero(a), nonzero(c)));
        return bool_word(g::or_(b_, nonzero(a), nonzero(c)));  // or
      }
    }
    return wb_.constant(Int(0));
  }

  Word div(const Word& a, const Word& c, Wire pc) {
    if (!c.is_const()) throw ProgramNotBlastable("division by a value that depends on the input");
    const Int den = c.lo;
    if (den.is_zero() || (a.lo == kMin && den == Int(-1))) {  // the interpreter throws
      fail_if(pc, b_.one());
      return wb_.constant(Int(0));
    }
    if (a.is_const()) {
      if (!a.lo.fits_int64() || !den.fits_int64()) throw ProgramNotBlastable("a value leaves int64");
      const std::int64_t x = a.lo.to_int64(), y = den.to_int64();
      const std::int64_t q = x / y;
      return wb_.constant(Int((x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q));
    }
    std::size_t k = 0;
    while (k < 63 && pow2(k) < den) ++k;
    if (!(pow2(k) == den) || a.lo < Int(0))
      throw ProgramNotBlastable("division of a value that depends on the input by " + den.str() +
                                " (only a non-negative value by a power of two is bit-blasted)");
    if (k >= a.bits.size()) return wb_.constant(Int(0));
    g::Bits bits(a.bits.begin() + static_cast<std::ptrdiff_t>(k), a.bits.end());  // a >= 0: its sign bit is 0
    if (!a.hi.fits_int64()) throw ProgramNotBlastable("a value's interval leaves int64");
    return wb_.from_bits(bits, Int(a.lo.to_int64() >> k), Int(a.hi.to_int64() >> k));
  }

  void exec(const std::vector<prog::Stmt>& ss, Wire pc) {
    using S = prog::Stmt;
    for (const S& s : ss) {
      if (pc == b_.zero()) return;
      switch (s.kind) {
        case S::If: {
          const Wire c = nonzero(eval(s.cond, pc));
          exec(s.then_, g::and_(b_, pc, c));
          exec(s.else_, g::and_(b_, pc, g::not_(b_, c)));
          break;
        }
        case S::Set: {
          const Word v = eval(s.values[0], pc);
          const std::size_t w = reg_width_.at(s.index);
          fail_if(pc, g::not_(b_, fits(v, w)));  // negative, or wider than the register
          regs_[s.index] = mux(pc, v, regs_[s.index], w);
          break;
        }
        case S::Insert: {
          const Word v = eval(s.values[0], pc);
          const std::size_t w = bag_width_.at(s.index);
          fail_if(pc, g::not_(b_, fits(v, w)));
          bags_[s.index].push_back({pc, low(v, w)});
          break;
        }
        case S::Output: {
          if (s.values.size() != width_) {
            fail_if(pc, b_.one());
            break;
          }
          for (std::size_t k = 0; k < width_; ++k) row_[k] = g::mux(b_, pc, nonzero(eval(s.values[k], pc)), row_[k]);
          break;
        }
      }
    }
  }

  WordBuilder& wb_;
  Builder& b_;
  const prog::Ast& ast_;
  std::size_t rows_, d_;
  const std::vector<Wire>& cells_;
  std::size_t i_ = 0, width_ = 0;
  Wire fails_;
  std::vector<Word> regs_;
  std::vector<std::size_t> reg_width_, bag_width_;
  std::vector<std::vector<Slot>> bags_;
  std::vector<Wire> row_;
};

}  // namespace

UnrolledProgram unroll_program(WordBuilder& wb, const prog::Ast& ast, std::size_t rows, std::size_t d, const std::vector<Wire>& cells) {
  return Unroller(wb, ast, rows, d, cells).run();
}

}  // namespace cz::circuits::sat
