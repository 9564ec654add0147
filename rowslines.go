package pad

import "math/bits"

// The lines kernel (KERNELS.md item 10) makes the middle rows of a plane
// of narrow rows, rows that follow each other in dst and are made from
// consecutive input rows (suite case g: 116-byte reflect rows), as one
// stream of 64-byte-aligned blocks. The row by row shuffle kernel stores
// each such row as two stores that straddle a cache line; here each block
// is one aligned store of one permutation of the two aligned input blocks
// it reads from. The blocks repeat their pattern every few rows (a
// period), so one table per pair of phases (the middle's first byte in a
// 64-byte line of dst, its first input byte in one of src) serves every
// plane.

// Bounds of the lines tables: the entries of one table, and the bytes of
// a level's tables at one element size.
const (
	linesMaxPeriod = 128
	linesMaxBytes  = 32 << 10
)

// linesTable is the table of one pair of phases, in the kernel's form:
// entries+linesCopies entries (linesEntries; the last ones copies of the
// first ones, so that the kernel's pairs of blocks may run past the
// period's end), each the index of each byte of its block in its 128-byte
// window (tab[64e:64e+64]), bit 7 of the first set where the window moves
// on by 64 bytes before the block.
type linesTable struct {
	tab             []byte
	period, entries int
	// cur is the offset, from the middle's first input byte, of the
	// first window's second block (64-byte aligned in memory).
	cur int
	// advs[m] counts the moves of entries 1..m, total those of a period.
	advs  []int
	total int
}

// moves returns how many times the window moves on in blocks 1..j.
func (t *linesTable) moves(j int) int {
	return j/t.period*t.total + t.advs[j%t.period]
}

// linesSet is the lines tables of the planes of one level at one element
// size: their middle rows, the run of the level's row list, at width
// bytes a row in dst and srcStride bytes a row in src.
type linesSet struct {
	width, srcStride int
	// The phases it has tables for: dst phases cd+k*gd, src phases
	// cs+k*gs (mod 64), the ones planes take when dst and src start on a
	// 64-byte boundary, as Go's large allocations do.
	cd, gd, cs, gs int
	dShift, sShift int // log2 of gd and gs
	tables         []*linesTable
}

// table returns the table of the middle of a plane whose first output byte
// is at address phase dph (mod 64) and first input byte at sph, or nil.
func (g *linesSet) table(dph, sph int) *linesTable {
	a, b := (dph-g.cd)&63, (sph-g.cs)&63
	if a&(g.gd-1) != 0 || b&(g.gs-1) != 0 {
		return nil
	}
	return g.tables[a>>g.dShift<<(6-g.sShift)+b>>g.sShift] // gd, gs are powers of two
}

// linesOf returns the lines tables at element size bytes of the planes of
// pl, rows of the innermost level lv whose shuffle table is t, planes
// planeStride input elements apart, rows rowStride, elements stride; or
// nil.
func linesOf(pl, lv *level, t *shuffleTable, planeStride, rowStride, stride, size int) *linesSet {
	r := &lv.row
	return buildLinesSet(pl.list, t, (r.left+r.mid+r.right)*size, rowStride*size,
		r.src*stride*size, pl.outLen*pl.blk*size, planeStride*size)
}

// buildLinesSet returns the lines tables of planes of rows of width bytes
// by the shuffle table t, the middle rows of each plane (the run of the
// rows' list l) from consecutive input rows srcStride bytes apart, the
// input rows at src byte rowOff of their plane, planes
// dstPlane and srcPlane bytes apart; or nil where the kernel does not
// apply: rows that take the value, a width that is a multiple of 64 (its
// stores are aligned already), tables too large, or a block that reads
// beyond its 128-byte window.
func buildLinesSet(l *rowList, t *shuffleTable, width, srcStride, rowOff, dstPlane, srcPlane int) *linesSet {
	if width%64 == 0 || srcStride <= 0 {
		return nil
	}
	for i := range width {
		if !t.takes(i) {
			return nil
		}
	}
	period := linesPeriod(width, srcStride)
	if (l.run1-l.run0)*width < 4*64 || period > linesMaxPeriod {
		return nil
	}
	g := &linesSet{width: width, srcStride: srcStride,
		cd: l.run0 * width & 63, gd: gcd64(dstPlane), cs: (rowOff + int(l.idx[l.run0])*srcStride) & 63, gs: gcd64(srcPlane)}
	g.dShift, g.sShift = bits.TrailingZeros(uint(g.gd)), bits.TrailingZeros(uint(g.gs))
	count := 64 / g.gd * (64 / g.gs)
	if count*(linesEntries(period)+linesCopies)*64 > linesMaxBytes {
		return nil
	}
	for a := 0; a < 64; a += g.gd {
		for b := 0; b < 64; b += g.gs {
			gt := linesTableOf(t, width, srcStride, period, (g.cd+a)&63, (g.cs+b)&63)
			if gt == nil {
				return nil
			}
			g.tables = append(g.tables, gt)
		}
	}
	return g
}

// linesPeriod is the period, in blocks, of rows of width bytes from input
// rows srcStride bytes apart: the blocks of the fewest rows that are both
// whole lines of output and whole lines of input.
func linesPeriod(width, srcStride int) int {
	return lcm(64/gcd64(width), 64/gcd64(srcStride)) * width / 64
}

// linesCopies is the number of entries after a table's period that repeat
// its first ones: the lines kernel makes two blocks a turn and moves back
// by a period only between turns (as expandCopies for the expand kernels).
const linesCopies = 2

// linesEntries is the number of distinct entries of a table of the
// period: the period, but at least a turn of the kernel's blocks.
func linesEntries(period int) int { return max(period, linesCopies) }

// linesTableOf builds the table of rows of width bytes by the shuffle
// table t, srcStride bytes apart in src, whose first output byte is at
// phase dph of a line and first input byte at phase sph; nil if a block
// reads beyond its window.
func linesTableOf(t *shuffleTable, width, srcStride, period, dph, sph int) *linesTable {
	// in is the input byte, from sph's line, of output byte o >= 0.
	in := func(o int) int { return sph + o/width*srcStride + int(t.idx[o%width]) }
	// top is the line, from sph's, of the highest byte block j reads.
	top := func(j int) int {
		hi := 0
		for i := range 64 {
			hi = max(hi, in(64*j-dph+i))
		}
		return hi &^ 63
	}
	// Entry e is made from block period+e, whose bytes are all at o >= 0;
	// block e is the same, one period of rows (a multiple of 64 input
	// bytes) earlier.
	entries := linesEntries(period)
	gt := &linesTable{tab: make([]byte, 64*(entries+linesCopies)), period: period, entries: entries, advs: make([]int, period)}
	shift := period * 64 / width * srcStride
	last := top(period - 1)
	for e := range period {
		j := period + e
		c := top(j)
		adv := 0
		switch c - last {
		case 0:
		case 64:
			adv = 1
			gt.total++
		default:
			return nil
		}
		last = c
		for i := range 64 {
			k := in(64*j-dph+i) - (c - 64)
			if k < 0 || k >= 128 {
				return nil
			}
			gt.tab[64*e+i] = byte(k)
		}
		gt.tab[64*e] |= byte(adv << 7)
		if e > 0 {
			gt.advs[e] = gt.advs[e-1] + adv
		}
	}
	for e := period; e < entries+linesCopies; e++ {
		copy(gt.tab[64*e:][:64], gt.tab[64*(e-period):])
	}
	gt.cur = top(period) - shift - sph
	return gt
}

// rowsLinesGo is the Go version of the lines kernel (KERNELS.md item
// 10): dst[64j:64j+64] is block j, the windows are at src offsets first
// and cur (multiples of 64 from an aligned address).
func rowsLinesGo(dst, src []byte, first, cur, n int, tab []byte, entries int, head, tail uint64) {
	prev := first
	for j := range n {
		x := tab[64*(j%entries):][:64]
		if j > 0 && x[0]&0x80 != 0 {
			prev, cur = cur, cur+64
		}
		m := ^uint64(0)
		if j == 0 {
			m &= head
		}
		if j == n-1 {
			m &= tail
		}
		for i := range 64 {
			if m>>i&1 == 0 {
				continue
			}
			if k := int(x[i] & 127); k < 64 {
				dst[64*j+i] = src[prev+k]
			} else {
				dst[64*j+i] = src[cur+k-64]
			}
		}
	}
}

// linesRowsGo makes bytes [from, to) of the middle rows d (width bytes a
// row) from the input rows s (srcStride bytes apart) by the shuffle table
// t: what the lines kernel leaves where a window would reach beyond the
// input.
func linesRowsGo(d, s []byte, from, to, width, srcStride int, t *shuffleTable) {
	for o := from; o < to; o++ {
		d[o] = s[o/width*srcStride+int(t.idx[o%width])]
	}
}

// gcd64 is the greatest common divisor of n and 64.
func gcd64(n int) int {
	n |= 64
	return n & -n
}

// lcm is the least common multiple of a and b (> 0).
func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}
