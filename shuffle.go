package pad

import (
	"encoding/binary"
	"unsafe"
)

// Narrow rows (at most 128 bytes in and out, as in the 7x7 to 28x28 planes
// of convolutional networks) are made by one permutation of each input row:
// a shuffle table says, for every output byte, which byte of the input row
// it takes or that it takes the value. The AVX-512 VBMI kernel builds each
// row in registers and writes it with one or two stores, where the rows
// kernels store each piece separately.

// shuffleTable is the table of a row: output byte i takes byte idx[i] of
// the input row if bit i%64 of take[i/64] is set, else byte i%32 of the
// value pattern. Taken indices are below the row's input length.
type shuffleTable struct {
	idx  [128]byte
	take [2]uint64
	// copyAgrees (wide tables): the head and the tail take, where they
	// overlap the copy of the src row, the bytes the copy would; the
	// aligned kernel may then make those bytes either way.
	copyAgrees bool
	// words: the same row as 4-byte words, for the AVX2 kernel, or nil.
	words *wordShuffle
	// narrow: the same row for the AVX2 kernel of narrower rows, or nil
	// (where words is not).
	narrow *narrowShuffle
}

// bytes is the table as the kernel reads it.
func (t *shuffleTable) bytes() *[144]byte { return (*[144]byte)(unsafe.Pointer(t)) }

// takes reports whether output byte i takes an input byte.
func (t *shuffleTable) takes(i int) bool { return t.take[i/64]>>(i%64)&1 != 0 }

// full returns 1 if every byte of a row width bytes wide takes an input
// byte (none takes the value), else 0: the AVX2 tables' flag for the
// kernels' loops that skip the blend.
func (t *shuffleTable) full(width int) int32 {
	for i := range width {
		if !t.takes(i) {
			return 0
		}
	}
	return 1
}

// wordShuffle is the AVX2 shuffle kernel's table of a row whose bytes go
// in whole 4-byte words (elements of 4, 8 or 16 bytes; rowsShuffleDwordsAVX2):
// n blocks of 32 bytes, block b at byte blocks[b].dst of the dst row from
// the 32-byte window at byte blocks[b].src of the src row, its word k the
// window's word idx[k]&7 where bit 31 of idx[k] is set, else the
// pattern's word k (from the block's start: the same as from the row's,
// since the value repeats every element and the blocks start at
// multiples of 4 bytes and of the element size, width being one); full
// is 1 when every word takes one of the src row. The
// blocks end at the row's last byte (the last overlaps the one before
// when the width is not a multiple of 32) and the windows lie in the
// row's input.
type wordShuffle struct {
	n, full int32
	blocks  [4]struct {
		dst, src int64
		idx      [8]uint32
	}
}

// bytes is the table as the kernel reads it.
func (t *wordShuffle) bytes() *[200]byte { return (*[200]byte)(unsafe.Pointer(t)) }

// wordTable returns the word table of the rows of t, width bytes from mid
// bytes, or nil when they are narrower than a block, a byte of a word
// goes apart from the others, or a block takes words more than 8 apart.
func wordTable(t *shuffleTable, width, mid int) *wordShuffle {
	if width < 32 || mid < 32 {
		return nil
	}
	src := wordSources(t, width, mid)
	if src == nil {
		return nil
	}
	ws := &wordShuffle{full: t.full(width)}
	for b := 0; 32*b < width; b++ {
		o := min(32*b, width-32) // the last block ends at the row's end
		lo, hi := mid/4, -1
		for _, j := range src[o/4 : o/4+8] {
			if j >= 0 {
				lo, hi = min(lo, j), max(hi, j)
			}
		}
		win := max(0, min(lo, mid/4-8))
		if hi-win >= 8 {
			return nil
		}
		blk := &ws.blocks[b]
		blk.dst, blk.src = int64(o), int64(4*win)
		for k, j := range src[o/4 : o/4+8] {
			if j >= 0 {
				blk.idx[k] = 1<<31 | uint32(j-win)
			}
		}
		ws.n++
	}
	return ws
}

// wordSources returns the src word of each 4-byte word of the rows of t,
// width bytes from mid bytes (-1 where a word takes the value), or nil
// when the rows do not go in whole words.
func wordSources(t *shuffleTable, width, mid int) []int {
	if width%4 != 0 || mid%4 != 0 {
		return nil
	}
	src := make([]int, width/4)
	for w := range src {
		src[w] = -1
		if t.takes(4 * w) {
			src[w] = int(t.idx[4*w]) / 4
		}
		for k := range 4 {
			i := 4*w + k
			if t.takes(i) != (src[w] >= 0) || src[w] >= 0 && (t.idx[4*w]%4 != 0 || int(t.idx[i]) != int(t.idx[4*w])+k) {
				return nil
			}
		}
	}
	return src
}

// setAVX2Tables gives t, a table of rows of width bytes from mid bytes at
// element size bytes, its tables for the AVX2 shuffle kernels: a word
// table where the rows go in words, else a narrow table where they are
// narrow enough.
func (t *shuffleTable) setAVX2Tables(width, mid, size int) {
	if t.words = wordTable(t, width, mid); t.words == nil {
		t.narrow = narrowTable(t, width, mid, size)
	}
}

// narrowShuffle is the AVX2 shuffle kernel's table of a narrow row
// (rowsShuffleNarrowAVX2, KERNELS.md item 17): rows of 4 to 32 bytes in
// and 8 to 64 out, of any form. The kernel loads the first and the last H
// bytes of the input row (H = 16, 8 or 4, so that they hold every byte of
// it): src byte j is byte j of the first piece if j < H, else byte j-hi of
// the last, hi = mid-H. A row is two blocks of B bytes (B = 8, 16 or 32),
// at 0 and at tail = width-B. With 16-byte pieces, each in both lanes of
// a register, result byte k of block i is byte a[i][k] of the first piece
// or byte b[i][k] of the last (VPSHUFB gives 0 for an index with bit 7
// set, and the kernel ORs the two shuffles; both indexes of a byte that
// takes the value have it set, so that the value can be ORed in); with
// 8- or 4-byte pieces, side by side in a register w, byte a[i][k]&15 of
// w. It takes that byte if bit 7 of m[i][k] is set, else the value; rows
// of at most 16 (B = 8) or 32 (B = 16) bytes are one result whose halves
// are the two blocks.
// full is 1 when every byte of the row takes one of src (no value to
// blend in). Rows that go in whole 4-byte words with 16-byte pieces
// (float32 rows of 4 to 8 elements: shapes D16O16 and D16O32) take a word
// permutation instead: result word k of block i is word a[i][4k] (a
// little-endian index) of the two pieces side by side (VPERMD), one
// permutation where the bytes take two shuffles and an OR.
type narrowShuffle struct {
	shape    int32 // narrowC16O16 etc.: how the kernel loads and stores
	full     int32
	hi, tail int64
	_        int64
	a, b, m  [2][32]byte
}

// The shapes of narrow tables: the pieces of the input row (C16: two of 16
// bytes in a YMM; C8, C4: two of 8 or 4 bytes in an XMM, in both lanes of
// a YMM for blocks of 16 and 32 bytes) and the blocks of the output row
// (O32, O16, O8: two of 32, 16 or 8 bytes). Rows of 17 to 64 bytes from 4
// to 15 took the rows kernels' general loop before C8O32, C4O32 and C4O16
// (edge rows of one float64 padded to five, 4.5 ns a row).
const (
	narrowC16O16 = iota
	narrowC16O32
	narrowC8O16
	narrowC8O8
	narrowC4O8
	narrowD16O16 // C16O16 by words
	narrowD16O32 // C16O32 by words
	narrowC8O32
	narrowC4O32
	narrowC4O16
)

// bytes is the table as the kernel reads it.
func (t *narrowShuffle) bytes() *[224]byte { return (*[224]byte)(unsafe.Pointer(t)) }

// narrowTable returns the narrow table of the rows of t, width bytes from
// mid bytes at element size bytes, or nil when they are wider or narrower
// than the kernel takes. The value's pattern repeats every element: the
// second block, which starts at a multiple of it, takes its pattern from
// the position of its half of the register, a multiple of 8 bytes (of 16
// where the element is wider than 8 bytes: not with 8-byte blocks).
func narrowTable(t *shuffleTable, width, mid, size int) *narrowShuffle {
	n := new(narrowShuffle)
	piece, block := 16, 16
	switch {
	case width < 8 || width > 64 || mid < 4 || mid > 32:
		return nil
	case width <= 16 && mid <= 16:
		if size > 8 {
			return nil
		}
		piece, block, n.shape = 8, 8, narrowC8O8
		if mid < 8 {
			piece, n.shape = 4, narrowC4O8
		}
	case width >= 16 && width <= 32 && mid >= 16:
		n.shape = narrowC16O16
	case width >= 16 && width <= 32 && mid >= 8:
		piece, n.shape = 8, narrowC8O16
	case width >= 16 && width <= 32:
		piece, n.shape = 4, narrowC4O16
	case width > 32 && mid >= 16:
		block, n.shape = 32, narrowC16O32
	case width > 32 && mid >= 8:
		piece, block, n.shape = 8, 32, narrowC8O32
	case width > 32:
		piece, block, n.shape = 4, 32, narrowC4O32
	default:
		return nil
	}
	n.hi, n.tail = int64(mid-piece), int64(width-block)
	n.full = t.full(width)
	pos := func(j int) int { // the byte of w that holds src byte j
		if j < piece {
			return j
		}
		return piece + j - (mid - piece)
	}
	for i := range n.a {
		for k := range n.a[i] {
			n.a[i][k], n.b[i][k] = 0x80, 0x80
		}
	}
	fill := func(blk, k, at int) { // result byte k of block blk is row byte at
		if !t.takes(at) {
			return
		}
		p := pos(int(t.idx[at]))
		n.m[blk][k] = 0xff
		if piece < 16 || p < 16 { // a piece of 8 or 4 bytes is in every lane
			n.a[blk][k] = byte(p % 16)
		} else {
			n.b[blk][k] = byte(p % 16)
		}
	}
	// rowByte is the row byte of result byte k of block blk.
	rowByte := func(blk, k int) int {
		switch {
		case block == 32:
			return blk*(width-32) + k
		case k >= block: // one result, its halves the blocks
			return width - block + k - block
		}
		return k
	}
	// A result is a block of 32 bytes, or two blocks of 16 or 8.
	blocks, span := 1, 2*block
	if block == 32 {
		blocks, span = 2, 32
	}
	for blk := range blocks {
		for k := range span {
			fill(blk, k, rowByte(blk, k))
		}
	}
	if piece == 16 && wordSources(t, width, mid) != nil {
		// Words: a's first byte of each word becomes the word's index
		// into the 8 words of the two pieces side by side (the mask is
		// the same).
		if n.shape == narrowC16O16 {
			n.shape = narrowD16O16
		} else {
			n.shape = narrowD16O32
		}
		for blk := range blocks {
			for k := 0; k < 32; k += 4 {
				var word uint32
				if at := rowByte(blk, k); t.takes(at) {
					word = uint32(pos(int(t.idx[at])) / 4)
				}
				binary.LittleEndian.PutUint32(n.a[blk][k:], word)
			}
		}
	}
	return n
}

// shuffleMax is the widest row, in bytes, a shuffle table describes.
const shuffleMax = 128

// wideMax is the widest row, in bytes, the wide kernel makes, as the rows
// kernels: beyond it rows are copied by the runtime's memmove. Against
// rowsConstAVX512 (BenchmarkRowsWide, 4-byte pads, 800 KiB): rows of 224
// and 888 bytes 15% and 35% faster, 1500 and 2000 bytes 6-20% faster,
// 2800 to 16000 bytes level (both copy long middles with the same aligned
// loop).
const wideMax = 16 << 10

// constTable is the aligned kernel's table of constant rows: no byte of
// the head or the tail is taken from the row (KERNELS.md item 9).
var constTable = &shuffleTable{copyAgrees: true}

// alignedConstFits reports whether constant rows of mid bytes between pads
// of left and right bytes suit the aligned kernel with constTable: whatever
// the pads, if a 64-byte block meets at most one of them (mid >= 64) and
// the kernel's mask tables reach (left + right <= 128).
func alignedConstFits(left, mid, right int) bool { return mid >= 64 && left+right <= 128 }

// repeatsAfter reports whether pat repeats after n bytes (its period
// divides n).
func repeatsAfter(pat *[32]byte, n int) bool {
	for i := range pat {
		if pat[i] != pat[(i+n)%32] {
			return false
		}
	}
	return true
}

// shuffleFits reports whether rows of width bytes from mid bytes suit the
// shuffle kernel (KERNELS.md item 7).
func shuffleFits(width, mid int) bool { return width <= shuffleMax && mid <= shuffleMax }

// wideFits reports whether rows of width bytes from mid bytes at left suit
// the wide kernel (KERNELS.md item 8): pads of at most 64 bytes each.
func wideFits(width, mid, left int) bool {
	return width >= 128 && width <= wideMax && mid >= 64 && left <= 64 && width-left-mid <= 64
}

// rowMap returns the element map of the rows of the innermost level lv
// (its row form recognised, stride its input stride), its own indexMap,
// and the input element the rows kernels' src points at, when the rows
// may have shuffle or wide tables; or nil: rows of a general form, wider
// than the wide kernel makes, or reading outside the window of input the
// rows kernels take.
func rowMap(lv *level, stride int) (out []int32, base int32) {
	r := &lv.row
	outElems := lv.outLen * lv.blk
	if r.kind == rowGeneral || outElems > wideMax {
		return nil, 0
	}
	out = indexMap([]level{*lv}, []int{stride}, lv.inLen*stride, outElems)
	base = int32(r.src * stride)
	for _, j := range out {
		if j >= 0 && (j < base || j-base >= int32(r.mid)) {
			return nil, 0 // not a row form after all
		}
	}
	return out, base
}

// generalRows are the shuffle tables of rows of a general form
// (generalRowTable): tab for rows of up to shuffleMax bytes, or tab256 for
// rows of up to shuffle256Max; width and mid are a row's bytes out and in.
type generalRows struct {
	tab        *shuffleTable
	tab256     *shuffle256Table
	width, mid int
}

// generalRowTable returns the shuffle tables of the rows of lv (elements
// stride apart) at element size bytes when their form is general
// (rowGeneral: periodic padding past the period, interior padding, which
// the row forms and their tables do not describe) and a row, in and out,
// fits a shuffle kernel: a row's window of input is all of its input row,
// from its first element (mid). Without it such rows went by the
// executor's segments, a call each (uint8 [83, 8, 5] reflected by 13 on its
// rows: 47x memmove).
func generalRowTable(lv *level, stride, size int) *generalRows {
	if lv.row.kind != rowGeneral || !kernelSize(size) || lv.inLen == 0 || stride <= 0 {
		return nil
	}
	span := (lv.inLen-1)*stride + lv.blk // the input elements of a row
	g := &generalRows{width: lv.outLen * lv.blk * size, mid: span * size}
	narrow := shuffleFits(g.width, g.mid)
	if g.width == 0 || !narrow && !shuffle256Fits(g.width, g.mid) {
		return nil
	}
	out := indexMap([]level{*lv}, []int{stride}, span, lv.outLen*lv.blk)
	src := func(i int) int { return byteSource(out, 0, size, i) }
	if !narrow {
		if g.tab256 = shuffle256TableOf(g.width, g.mid, src); g.tab256 == nil {
			return nil
		}
		return g
	}
	g.tab = shuffleTableOf(g.width, g.mid, size, src)
	return g
}

// shuffleTableOf returns the shuffle table of rows of width bytes from mid
// (shuffleFits) whose byte i takes src(i) of the input row, or the value
// where that is negative, with its AVX2 tables.
func shuffleTableOf(width, mid, size int, src func(i int) int) *shuffleTable {
	t := new(shuffleTable)
	for i := range width {
		if j := src(i); j >= 0 {
			t.idx[i] = byte(j)
			t.take[i/64] |= 1 << (i % 64)
		}
	}
	t.setAVX2Tables(width, mid, size)
	return t
}

// planeShuffle is the shuffle table of whole planes taken as one row each:
// width output bytes from an input plane of mid bytes.
type planeShuffle struct {
	tab        shuffleTable
	width, mid int
}

// planeTable returns the shuffle table of the planes of pl (rows of lv,
// rowStride input elements apart, elements stride apart) at element size
// bytes when a plane is at most shuffleMax bytes in and out, or nil. Such
// a plane (uint8 7x7 padded to 9x9) is then one permutation and at most two
// stores, not a store a row.
func planeTable(pl, lv *level, rowStride, stride, size int) *planeShuffle {
	outElems := pl.outLen * pl.blk
	if outElems == 0 || outElems*size > shuffleMax {
		return nil
	}
	out, _ := planeMap(pl, lv, rowStride, stride, size, shuffleMax)
	if out == nil {
		return nil
	}
	t := &planeShuffle{width: outElems * size}
	for i := range t.width {
		if j := out[i/size]; j >= 0 {
			k := int(j)*size + i%size
			t.tab.idx[i] = byte(k)
			t.tab.take[i/64] |= 1 << (i % 64)
			t.mid = max(t.mid, k+1)
		}
	}
	if t.mid == 0 {
		return nil // all value: the fills do it
	}
	t.tab.setAVX2Tables(t.width, t.mid, size)
	return t
}

// rowGroupTable is the shuffle table of rows of the innermost level taken
// rows at a time as one row of the shuffle kernel (rowGroupOf), as
// rowChunkTable is the chunks kernel's.
type rowGroupTable struct {
	planeShuffle
	rows, srcStride int
}

// rowGroupOf returns the shuffle table of the rows of lv (rowStride input
// elements apart, elements stride apart) at element size bytes taken as
// many at a time as fit shuffleMax bytes in and out, as one row of the
// shuffle kernel, or nil: rows of more than 48 bytes out or of a multiple
// of 32, rows of elements of 4 bytes or more of at most 24 bytes, groups
// of fewer than two rows or that take as many stores as their rows, and
// rows not read forward. The VBMI level's shuffle kernel stores a row of
// up to 64 bytes at a time, so rows of 17 to 42 bytes made two to seven
// at a time take fewer stores. There, in process (with and without the
// groups alternated 7 rounds; rows of 6 to 64 bytes out, every type and
// mode, 40 and 200 KB out): 140 rank-2 geometries took 0.67-1.05x the
// time, rows of 25 to 48 bytes median 0.86-0.91x (uint8 [9090, 19] padded
// to [9091, 22] 1.90 -> 1.07x memmove); 100 rank-3 ones with pad rows
// 0.81-1.06x, median 1.00x. Left out, measured slower: groups of rows of
// 43 to 64 bytes, two to a group and as many stores (up to 1.24x), rows of
// 32 bytes (whole YMM stores, 1.02-1.14x), float32 rows of 20 to 24 bytes
// (1.04-1.11x), a call per plane where the kernel takes them all in one
// (1.4x). At the AVX2 level, whose narrow kernel takes groups of up to 32
// bytes in, 0.78-1.30x, median 1.00x: only the VBMI level takes them
// (rowGroupsBytes).
func rowGroupOf(lv *level, rowStride, stride, size int) *rowGroupTable {
	width := lv.outLen * lv.blk * size
	if lv.row.kind == rowGeneral || width > 48 || width%32 == 0 || size >= 4 && width <= 24 || rowStride <= 0 {
		return nil
	}
	k := shuffleMax / width
	for k >= 2 && k*rowStride*size > shuffleMax {
		k--
	}
	if k < 2 || (k*width+63)/64 >= k {
		return nil // as many stores as rows
	}
	pl := rowsLevel(lv, k)
	t := planeTable(&pl, lv, rowStride, stride, size)
	if t == nil {
		return nil
	}
	return &rowGroupTable{*t, k, rowStride * size}
}

// planeMap returns the element map of a plane of pl (rows of lv, rowStride
// input elements apart, elements stride apart; indexMap) and the bytes of
// input it reaches at element size bytes, or nil: sizes the byte kernels
// do not take, empty input planes, rows read backward, or more than maxIn
// bytes of input.
func planeMap(pl, lv *level, rowStride, stride, size, maxIn int) (out []int32, inLen int) {
	if !kernelSize(size) || pl.inLen == 0 || lv.inLen == 0 || rowStride < 0 {
		return nil, 0
	}
	span := (pl.inLen-1)*rowStride + lv.inLen*stride // the input elements a plane reaches
	if span*size > maxIn {
		return nil, 0
	}
	return indexMap([]level{*pl, *lv}, []int{rowStride, stride}, span, pl.outLen*pl.blk), span * size
}

// byteSource returns the byte of the src row that output byte i of rows
// with the element map out (rowMap, input elements from base) takes at
// element size bytes, or -1 where it takes the value.
func byteSource(out []int32, base int32, size, i int) int {
	j := out[i/size]
	if j < 0 {
		return -1
	}
	return int(j-base)*size + i%size
}

// shuffle256Max is the widest row, in bytes, a shuffle256Table describes:
// six 64-byte chunks.
const shuffle256Max = 384

// shuffle256Table is the table of a row of shuffleMax+1 to shuffle256Max
// bytes from 64 to 256 that takes no value (KERNELS.md item 19): chunk c,
// the 64 bytes at 64c (the last chunk at width-64), takes its byte i from
// byte idx[c][i] of its two windows of the input row (shuffle256Windows).
type shuffle256Table struct {
	idx [6][64]byte
}

// bytes is the table as the kernel reads it.
func (t *shuffle256Table) bytes() *[384]byte { return (*[384]byte)(unsafe.Pointer(t)) }

// shuffle256Fits reports whether rows of width bytes from mid bytes suit
// the kernel of shuffle256 tables.
func shuffle256Fits(width, mid int) bool {
	return width > shuffleMax && width <= shuffle256Max && mid >= 64 && mid <= 256
}

// shuffle256Windows returns the input offsets of the two 64-byte windows
// whose 128 bytes chunk c of n takes (index i < 64: byte a+i, else byte
// b+i-64). Rows of at most 128 bytes lie whole in their first and last 64
// bytes, which every chunk takes. Longer ones: those around the row's ends
// (the pads' sources, whatever the mode), and between them the windows of
// slots c-1 and c, slot k at min(64k, mid-64) (k at most 3), which hold the
// chunk's copy when the left pad is at most 64 bytes.
func shuffle256Windows(c, n, mid int) (a, b int) {
	slot := func(k int) int { return min(64*min(k, 3), mid-64) }
	switch {
	case mid <= 128 || c == 0:
		return 0, mid - 64
	case c == n-1:
		return mid - 64, 0
	}
	return slot(c - 1), slot(c)
}

// shuffle256TableOf returns the table of rows of width bytes from mid
// whose output byte i takes input byte src(i), or nil where a byte takes
// the value (constant rows keep the kernels tuned for them) or lies
// outside its chunk's windows (pads of more than 64 bytes).
func shuffle256TableOf(width, mid int, src func(i int) int) *shuffle256Table {
	t := new(shuffle256Table)
	n := (width + 63) / 64
	for c := range n {
		at := min(64*c, width-64)
		a, b := shuffle256Windows(c, n, mid)
		for i := range 64 {
			switch j := src(at + i); {
			case j < 0:
				return nil
			case j >= a && j < a+64:
				t.idx[c][i] = byte(j - a)
			case j >= b && j < b+64:
				t.idx[c][i] = byte(64 + j - b)
			default:
				return nil
			}
		}
	}
	return t
}

// rowTables returns the tables of the rows of lv at element size bytes:
// narrow rows (at most shuffleMax bytes) get a shuffle table, rows of up
// to shuffle256Max bytes from 64 to 256 a shuffle256 table, wider rows
// with pads of at most 64 bytes a head-and-tail table (the wide kernel),
// and rows with pads of at most 16 bytes an ends table (the ends kernel,
// for CPUs without VBMI); any may be nil, all are where rowMap is.
func rowTables(lv *level, stride, size int) (shuffle, wide *shuffleTable, ends *endsTable, endsWords *endsWordsTable, shuffle256 *shuffle256Table) {
	out, base := rowMap(lv, stride)
	if out == nil {
		return nil, nil, nil, nil, nil
	}
	r := &lv.row
	width, mid, left := len(out)*size, r.mid*size, r.left*size
	src := func(i int) int { return byteSource(out, base, size, i) }
	// copyBetween reports whether the row is a copy between its first
	// and last n bytes, element by element (the sizes divide 16).
	copyBetween := func(n int) bool {
		for e := n / size; e < (width-n)/size; e++ {
			if out[e]-base != int32(e-r.left) {
				return false
			}
		}
		return true
	}
	copy16 := endsFits(width, mid, left) && copyBetween(16)
	if copy16 {
		ends = endsTableOf(width, mid, src)
	}
	if ends == nil && size%4 == 0 && endsWordsFits(width, mid, left) && copyBetween(32) {
		endsWords = endsWordsTableOf(width, mid, size, src)
	}
	if shuffle256Fits(width, mid) {
		shuffle256 = shuffle256TableOf(width, mid, src)
	}
	switch {
	case shuffleFits(width, mid):
		return shuffleTableOf(width, mid, size, src), nil, ends, endsWords, nil
	case wideFits(width, mid, left) && (copy16 || copyBetween(64)):
		return nil, wideTable(width, mid, left, src), ends, endsWords, shuffle256
	}
	return nil, nil, ends, endsWords, shuffle256
}

// wideTable builds the head-and-tail table of a wide row that is a copy
// between its first and last 64 bytes, or returns nil if a pad reads
// outside the first and last 64 bytes of its src row.
func wideTable(width, mid, left int, src func(i int) int) *shuffleTable {
	t := new(shuffleTable)
	t.copyAgrees = true
	for _, end := range [2][2]int{{left, 64}, {width - 64, left + mid}} { // the copy's bytes in the head and the tail
		for i := end[0]; i < end[1]; i++ {
			t.copyAgrees = t.copyAgrees && src(i) == i-left
		}
	}
	for half, at := range [2]int{0, width - 64} {
		for i := range 64 {
			j := src(at + i)
			switch {
			case j < 0:
				continue
			case j < 64:
				t.idx[64*half+i] = byte(j)
			case j >= mid-64:
				t.idx[64*half+i] = byte(64 + j - (mid - 64))
			default:
				return nil
			}
			t.take[half] |= 1 << i
		}
	}
	return t
}

// listedRows calls row with each of rows dst rows (width bytes at
// t*dstStride) and its src row (mid bytes at t*srcStride, or at
// rowIdx[t]*srcStride if rowIdx is not nil): the rows of the shuffle
// kernels' Go versions.
func listedRows(dst, src []byte, rows, dstStride, srcStride, width, mid int, rowIdx []int32, row func(d, s []byte)) {
	for t := 0; t < rows; t++ {
		st := t
		if rowIdx != nil {
			st = int(rowIdx[t])
		}
		row(dst[t*dstStride:t*dstStride+width], src[st*srcStride:st*srcStride+mid])
	}
}

// rowsShuffleGo is the Go version of the shuffle kernel: row t of dst (at
// t*dstStride) gets width bytes by tab from the mid bytes of src row t (at
// t*srcStride), or of src row rowIdx[t] if rowIdx is not nil, and pat.
func rowsShuffleGo(dst, src []byte, rows, dstStride, srcStride, width, mid int, tab *shuffleTable, pat *[32]byte, rowIdx []int32) {
	listedRows(dst, src, rows, dstStride, srcStride, width, mid, rowIdx, func(d, s []byte) {
		for i := range d {
			if tab.takes(i) {
				d[i] = s[tab.idx[i]]
			} else {
				d[i] = pat[i%32]
			}
		}
	})
}

// rowsShuffle256Go is the Go version of the kernel of shuffle256 tables:
// row t of dst (at t*dstStride) gets width bytes by tab from the windows of
// the mid bytes of src row t (at t*srcStride), or of src row rowIdx[t] if
// rowIdx is not nil.
func rowsShuffle256Go(dst, src []byte, rows, dstStride, srcStride, width, mid int, tab *shuffle256Table, rowIdx []int32) {
	n := (width + 63) / 64
	listedRows(dst, src, rows, dstStride, srcStride, width, mid, rowIdx, func(d, s []byte) {
		for c := range n {
			a, b := shuffle256Windows(c, n, mid)
			var w [128]byte
			copy(w[:64], s[a:])
			copy(w[64:], s[b:])
			at := min(64*c, width-64)
			for i := range 64 {
				d[at+i] = w[tab.idx[c][i]%128]
			}
		}
	})
}

// rowsWideGo is the Go version of the wide kernel (KERNELS.md item 8): row
// t of dst (at t*dstStride) is width bytes: the head and the tail (64
// bytes each) by tab from the first and the last 64 bytes of the mid
// bytes of src row t (at t*srcStride), the bytes between copied from the
// src row shifted by left.
func rowsWideGo(dst, src []byte, rows, dstStride, srcStride, width, mid, left int, tab *shuffleTable, pat *[32]byte) {
	for r := 0; r < rows; r++ {
		d := dst[r*dstStride : r*dstStride+width]
		s := src[r*srcStride : r*srcStride+mid]
		copy(d[64:width-64], s[64-left:])
		for half, at := range [2]int{0, width - 64} {
			for i := range 64 {
				b := pat[i%32]
				if tab.take[half]>>i&1 != 0 {
					j := int(tab.idx[64*half+i])
					if j >= 64 {
						j += mid - 128
					}
					b = s[j]
				}
				d[at+i] = b
			}
		}
	}
}
