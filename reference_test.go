package pad

// An independent, per-element reference for Pad, written from SEMANTICS.md and the
// contract in the API notes. It shares nothing with the package except the Spec, Mode and
// Order types and the error sentinels: validation is redone with exact (math/big)
// arithmetic and every output element is computed on its own by mapping each output
// coordinate through the per-axis index map.

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"testing"
)

// refMaxBytes mirrors Pad's limit on the size of one output (api.md: "exceed 1<<47"),
// 1 GiB where int has 32 bits.
const refMaxBytes = min(1<<47, math.MaxInt>>1)

// hugeDim is a dimension whose cube overflows int on every int width
// (1<<40 on 64-bit, 1<<24 on 32-bit) while twice it plus a little fits.
const hugeDim = 1 << (strconv.IntSize/2 + 8)

var (
	refBigMaxInt = big.NewInt(math.MaxInt)
	refBigMinInt = big.NewInt(math.MinInt)
)

func refBig(x int) *big.Int { return big.NewInt(int64(x)) }

func refFitsInt(x *big.Int) bool {
	return x.Cmp(refBigMaxInt) <= 0 && x.Cmp(refBigMinInt) >= 0
}

// refBigProduct multiplies dims exactly; a zero factor gives 0.
func refBigProduct(dims []int) *big.Int {
	p := big.NewInt(1)
	for _, d := range dims {
		if d == 0 {
			return big.NewInt(0)
		}
		p.Mul(p, refBig(d))
	}
	return p
}

// refCheck validates shape and s in the order of api.md and returns the output shape.
func refCheck(shape []int, s Spec) ([]int, error) {
	rank := len(shape)
	// 1. global checks
	if s.Mode > Symmetric {
		return nil, fmt.Errorf("ref: unknown mode %d: %w", uint8(s.Mode), ErrInvalidSpec)
	}
	if s.Order > PadThenCrop {
		return nil, fmt.Errorf("ref: unknown order %d: %w", uint8(s.Order), ErrInvalidSpec)
	}
	if len(s.Before) != rank || len(s.After) != rank {
		return nil, fmt.Errorf("ref: %d before and %d after pads for rank %d: %w",
			len(s.Before), len(s.After), rank, ErrInvalidSpec)
	}
	if s.Interior != nil && len(s.Interior) != rank {
		return nil, fmt.Errorf("ref: %d interior pads for rank %d: %w", len(s.Interior), rank, ErrInvalidSpec)
	}
	// 2. per axis
	out := make([]int, rank)
	zero := big.NewInt(0)
	for i := 0; i < rank; i++ {
		d, before, after := shape[i], s.Before[i], s.After[i]
		k := 0
		if s.Interior != nil {
			k = s.Interior[i]
		}
		if d < 0 {
			return nil, fmt.Errorf("ref: axis %d: negative dim %d: %w", i, d, ErrInvalidSpec)
		}
		if k < 0 {
			return nil, fmt.Errorf("ref: axis %d: negative interior %d: %w", i, k, ErrInvalidSpec)
		}
		if k > 0 && s.Mode != Constant {
			return nil, fmt.Errorf("ref: axis %d: interior %d in mode %d: %w", i, k, uint8(s.Mode), ErrInvalidSpec)
		}
		D := big.NewInt(0)
		if d > 0 {
			D.Mul(refBig(d-1), new(big.Int).Add(refBig(k), big.NewInt(1)))
			D.Add(D, big.NewInt(1))
		}
		if !refFitsInt(D) {
			return nil, fmt.Errorf("ref: axis %d: dilated length overflows: %w", i, ErrTooLarge)
		}
		// L = before + D + after, exactly: a negative length is invalid, one
		// beyond the int range too large, whatever the partial sums do.
		L := new(big.Int).Add(refBig(before), D)
		L.Add(L, refBig(after))
		if L.Sign() < 0 {
			return nil, fmt.Errorf("ref: axis %d: output length %v: %w", i, L, ErrInvalidSpec)
		}
		if !refFitsInt(L) {
			return nil, fmt.Errorf("ref: axis %d: output length %v overflows: %w", i, L, ErrTooLarge)
		}
		if s.Mode != Constant {
			positive := before > 0 || after > 0
			if s.Order == CropThenPad {
				w := refBig(d)
				if before < 0 {
					w.Add(w, refBig(before))
				}
				if after < 0 {
					w.Add(w, refBig(after))
				}
				if w.Cmp(zero) < 0 {
					return nil, fmt.Errorf("ref: axis %d: window %v: %w", i, w, ErrInvalidSpec)
				}
				if w.Sign() == 0 && positive {
					return nil, fmt.Errorf("ref: axis %d: empty window padded: %w", i, ErrEmptyAxis)
				}
			} else if d == 0 && positive {
				return nil, fmt.Errorf("ref: axis %d: empty axis padded: %w", i, ErrEmptyAxis)
			}
		}
		out[i] = int(L.Int64())
	}
	// 3. products
	if !refFitsInt(refBigProduct(shape)) {
		return nil, fmt.Errorf("ref: input elements overflow: %w", ErrTooLarge)
	}
	if !refFitsInt(refBigProduct(out)) {
		return nil, fmt.Errorf("ref: output elements overflow: %w", ErrTooLarge)
	}
	return out, nil
}

// refExt is the periodic extension of SEMANTICS §3 for an axis of length n >= 1, applied
// to x = j - b. It never overflows: edge handles a huge x explicitly and the periodic
// modes reduce j and b modulo the period first (n is small whenever elements are mapped).
func refExt(mode Mode, n, j, b int) int {
	if mode == Edge {
		if b < 0 && j > math.MaxInt+b { // x > MaxInt
			return n - 1
		}
		x := j - b
		if x < 0 {
			return 0
		}
		if x > n-1 {
			return n - 1
		}
		return x
	}
	var p int
	switch mode {
	case Wrap:
		p = n
	case Reflect:
		if n == 1 {
			return 0
		}
		p = 2 * (n - 1)
	case Symmetric:
		p = 2 * n
	default:
		panic("refExt: bad mode")
	}
	r := (j%p - b%p) % p
	if r < 0 {
		r += p
	}
	switch mode {
	case Wrap:
		return r
	case Reflect:
		if r < n {
			return r
		}
		return p - r
	default: // Symmetric
		if r < n {
			return r
		}
		return p - 1 - r
	}
}

// refAxisSource maps output coordinate j of one axis to an input coordinate, or -1 for
// the pad value.
func refAxisSource(mode Mode, order Order, d, before, after, k, j int) int {
	if mode == Constant {
		// t = j - before; if it does not fit an int it is beyond the dilated axis.
		if before < 0 && j > math.MaxInt+before {
			return -1
		}
		t := j - before
		D := 0
		if d > 0 {
			D = (d-1)*(k+1) + 1
		}
		if t < 0 || t >= D || t%(k+1) != 0 {
			return -1
		}
		return t / (k + 1)
	}
	if order == CropThenPad {
		lo, hi := 0, 0
		if before < 0 {
			lo = -before
		}
		if after < 0 {
			hi = -after
		}
		w := d - lo - hi
		bp := 0
		if before > 0 {
			bp = before
		}
		return lo + refExt(mode, w, j, bp)
	}
	return refExt(mode, d, j, before)
}

// refPad computes the output element by element from SEMANTICS.md's per-axis index maps.
// Elements are opaque byte strings of es bytes. For packed types the caller unpacks first (one element per byte, es=1).
func refPad(src []byte, es int, shape []int, s Spec, value []byte) (out []byte, outShape []int, err error) {
	outShape, err = refCheck(shape, s)
	if err != nil {
		return nil, nil, err
	}
	if es <= 0 {
		return nil, nil, fmt.Errorf("ref: element size %d: %w", es, ErrInvalidSpec)
	}
	inN := refBigProduct(shape)
	outN := refBigProduct(outShape)
	inBytes := new(big.Int).Mul(inN, refBig(es))
	outBytes := new(big.Int).Mul(outN, refBig(es))
	if !refFitsInt(inBytes) || outBytes.Cmp(big.NewInt(refMaxBytes)) > 0 {
		return nil, nil, fmt.Errorf("ref: %v input / %v output bytes: %w", inBytes, outBytes, ErrTooLarge)
	}
	if len(src) != int(inBytes.Int64()) {
		return nil, nil, fmt.Errorf("ref: len(src) %d, want %v: %w", len(src), inBytes, ErrShapeMismatch)
	}
	if len(value) != 0 && len(value) != es {
		return nil, nil, fmt.Errorf("ref: len(value) %d, elem size %d: %w", len(value), es, ErrShapeMismatch)
	}
	if len(value) == 0 {
		value = make([]byte, es)
	}
	rank := len(shape)
	n := int(outN.Int64())
	out = make([]byte, n*es)
	coord := make([]int, rank)
	for o := 0; o < n; o++ {
		rem := o
		for i := rank - 1; i >= 0; i-- {
			coord[i] = rem % outShape[i]
			rem /= outShape[i]
		}
		off, isValue := 0, false
		for i := 0; i < rank; i++ {
			k := 0
			if s.Interior != nil {
				k = s.Interior[i]
			}
			si := refAxisSource(s.Mode, s.Order, shape[i], s.Before[i], s.After[i], k, coord[i])
			if si < 0 {
				isValue = true
				break
			}
			if si >= shape[i] {
				panic(fmt.Sprintf("refPad: axis %d maps %d to %d of %d", i, coord[i], si, shape[i]))
			}
			off = off*shape[i] + si
		}
		if isValue {
			copy(out[o*es:(o+1)*es], value)
		} else {
			copy(out[o*es:(o+1)*es], src[off*es:(off+1)*es])
		}
	}
	return out, outShape, nil
}

// packBits packs one element per byte (low bits used) into 2- or 4-bit fields, the first
// element in the least significant bits; unused high bits of the last byte are 0.
func packBits(elems []byte, bits int) []byte {
	mask := byte(1)<<bits - 1
	out := make([]byte, (len(elems)*bits+7)/8)
	for e, v := range elems {
		bit := e * bits
		out[bit/8] |= (v & mask) << (bit % 8)
	}
	return out
}

// unpackBits is the inverse of packBits: n elements of bits bits, one per byte.
func unpackBits(b []byte, n, bits int) []byte {
	mask := byte(1)<<bits - 1
	out := make([]byte, n)
	for e := range out {
		bit := e * bits
		out[e] = (b[bit/8] >> (bit % 8)) & mask
	}
	return out
}

// refSentinels lists the package's error sentinels.
var refSentinels = []error{ErrInvalidSpec, ErrShapeMismatch, ErrEmptyAxis, ErrTooLarge, ErrOverlap}

// refSentinel returns the sentinel err wraps (nil for nil, err itself when it wraps none).
func refSentinel(err error) error {
	if err == nil {
		return nil
	}
	for _, s := range refSentinels {
		if errors.Is(err, s) {
			return s
		}
	}
	return err
}

func TestRefPadExamples(t *testing.T) {
	seq := func(from, n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(from + i)
		}
		return b
	}
	// ONNX examples: data 3x2 as bytes 10..15 (1.0 1.2 / 2.3 3.4 / 4.5 5.7).
	onnx := []byte{10, 11, 12, 13, 14, 15}
	ngraphOut := []byte{
		42, 42, 42, 42, 42, 42, 42, 42, 42,
		42, 42, 1, 42, 42, 2, 42, 42, 3,
		42, 42, 42, 42, 42, 42, 42, 42, 42,
		42, 42, 4, 42, 42, 5, 42, 42, 6,
		42, 42, 42, 42, 42, 42, 42, 42, 42,
		42, 42, 7, 42, 42, 8, 42, 42, 9,
		42, 42, 42, 42, 42, 42, 42, 42, 42,
	}
	cases := []struct {
		name     string
		src      []byte
		es       int
		shape    []int
		s        Spec
		value    []byte
		want     []byte
		wantSh   []int
		wantErr  error
		checkMsg bool
	}{
		{name: "wrap crop-then-pad", src: []byte{1, 2, 3, 4}, es: 1, shape: []int{4},
			s:    Spec{Mode: Wrap, Before: []int{-3}, After: []int{3}, Order: CropThenPad},
			want: []byte{4, 4, 4, 4}, wantSh: []int{4}},
		{name: "wrap pad-then-crop", src: []byte{1, 2, 3, 4}, es: 1, shape: []int{4},
			s:    Spec{Mode: Wrap, Before: []int{-3}, After: []int{3}, Order: PadThenCrop},
			want: []byte{4, 1, 2, 3}, wantSh: []int{4}},
		{name: "edge pad-then-crop", src: seq(1, 6), es: 1, shape: []int{6},
			s:    Spec{Mode: Edge, Before: []int{2}, After: []int{-7}, Order: PadThenCrop},
			want: []byte{1}, wantSh: []int{1}},
		{name: "edge crop-then-pad crops too much", src: seq(1, 6), es: 1, shape: []int{6},
			s:       Spec{Mode: Edge, Before: []int{2}, After: []int{-7}, Order: CropThenPad},
			wantErr: ErrInvalidSpec},
		{name: "reflect pad-then-crop openvino", src: seq(1, 6), es: 1, shape: []int{6},
			s:    Spec{Mode: Reflect, Before: []int{-7}, After: []int{3}, Order: PadThenCrop},
			want: []byte{4, 3}, wantSh: []int{2}},
		{name: "constant crop larger than axis", src: seq(1, 3), es: 1, shape: []int{3},
			s:     Spec{Mode: Constant, Before: []int{-4}, After: []int{2}},
			value: []byte{9}, want: []byte{9}, wantSh: []int{1}},
		{name: "constant zero value", src: []byte{1, 2, 3, 4, 5, 6}, es: 2, shape: []int{3},
			s:    Spec{Mode: Constant, Before: []int{1}, After: []int{-1}},
			want: []byte{0, 0, 1, 2, 3, 4}, wantSh: []int{3}},
		{name: "reflect n=1 repeats", src: []byte{5}, es: 1, shape: []int{1},
			s:    Spec{Mode: Reflect, Before: []int{2}, After: []int{3}},
			want: []byte{5, 5, 5, 5, 5, 5}, wantSh: []int{6}},
		{name: "reflect n=1 after crop repeats", src: []byte{5, 6, 7}, es: 1, shape: []int{3},
			s:    Spec{Mode: Reflect, Before: []int{-2}, After: []int{2}},
			want: []byte{7, 7, 7}, wantSh: []int{3}},
		{name: "symmetric n=1", src: []byte{5}, es: 1, shape: []int{1},
			s:    Spec{Mode: Symmetric, Before: []int{1}, After: []int{1}},
			want: []byte{5, 5, 5}, wantSh: []int{3}},
		{name: "reflect several periods", src: []byte{1, 2, 3}, es: 1, shape: []int{3},
			s:    Spec{Mode: Reflect, Before: []int{5}, After: []int{5}},
			want: []byte{2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2}, wantSh: []int{13}},
		{name: "symmetric several periods", src: []byte{1, 2, 3}, es: 1, shape: []int{3},
			s:    Spec{Mode: Symmetric, Before: []int{4}, After: []int{4}},
			want: []byte{3, 3, 2, 1, 1, 2, 3, 3, 2, 1, 1}, wantSh: []int{11}},
		{name: "wrap lopsided beyond one period", src: []byte{0, 1, 2}, es: 1, shape: []int{3},
			s:    Spec{Mode: Wrap, Before: []int{1}, After: []int{8}},
			want: []byte{2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1}, wantSh: []int{12}},
		{name: "onnx constant", src: onnx, es: 1, shape: []int{3, 2},
			s:    Spec{Mode: Constant, Before: []int{0, 2}, After: []int{0, 0}},
			want: []byte{0, 0, 10, 11, 0, 0, 12, 13, 0, 0, 14, 15}, wantSh: []int{3, 4}},
		{name: "onnx reflect", src: onnx, es: 1, shape: []int{3, 2},
			s:    Spec{Mode: Reflect, Before: []int{0, 2}, After: []int{0, 0}},
			want: []byte{10, 11, 10, 11, 12, 13, 12, 13, 14, 15, 14, 15}, wantSh: []int{3, 4}},
		{name: "onnx edge", src: onnx, es: 1, shape: []int{3, 2},
			s:    Spec{Mode: Edge, Before: []int{0, 2}, After: []int{0, 0}},
			want: []byte{10, 10, 10, 11, 12, 12, 12, 13, 14, 14, 14, 15}, wantSh: []int{3, 4}},
		{name: "onnx wrap", src: onnx, es: 1, shape: []int{3, 2},
			s: Spec{Mode: Wrap, Before: []int{2, 1}, After: []int{1, 1}},
			want: []byte{
				13, 12, 13, 12,
				15, 14, 15, 14,
				11, 10, 11, 10,
				13, 12, 13, 12,
				15, 14, 15, 14,
				11, 10, 11, 10,
			}, wantSh: []int{6, 4}},
		{name: "ngraph interior", src: seq(1, 9), es: 1, shape: []int{3, 3},
			s:     Spec{Mode: Constant, Before: []int{1, 2}, After: []int{1, 0}, Interior: []int{1, 2}},
			value: []byte{42}, want: ngraphOut, wantSh: []int{7, 9}},
		{name: "interior with negative crops", src: seq(1, 6), es: 1, shape: []int{2, 3},
			s:     Spec{Mode: Constant, Before: []int{1, -2}, After: []int{2, -1}, Interior: []int{2, 1}},
			value: []byte{0},
			want:  []byte{0, 0, 2, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0}, wantSh: []int{7, 2}},
		{name: "interior on empty axis", src: nil, es: 1, shape: []int{0},
			s:    Spec{Mode: Constant, Before: []int{1}, After: []int{4}, Interior: []int{7}},
			want: []byte{0, 0, 0, 0, 0}, wantSh: []int{5}},
		{name: "rank 0 copy", src: []byte{7, 8}, es: 2, shape: []int{},
			s:    Spec{Mode: Reflect},
			want: []byte{7, 8}, wantSh: []int{}},
		{name: "empty axis zero pads ok", src: nil, es: 1, shape: []int{2, 0},
			s:    Spec{Mode: Edge, Before: []int{1, 0}, After: []int{1, 0}},
			want: []byte{}, wantSh: []int{4, 0}},
		{name: "empty axis padded", src: nil, es: 1, shape: []int{2, 0},
			s:       Spec{Mode: Edge, Before: []int{0, 1}, After: []int{0, 0}},
			wantErr: ErrEmptyAxis},
		{name: "window 0 padded", src: seq(1, 4), es: 1, shape: []int{4},
			s:    Spec{Mode: Wrap, Before: []int{-2}, After: []int{-2}, Order: CropThenPad},
			want: []byte{}, wantSh: []int{0}},
		{name: "window 0 with positive pad", src: seq(1, 4), es: 1, shape: []int{4},
			s:       Spec{Mode: Wrap, Before: []int{-4}, After: []int{3}, Order: CropThenPad},
			wantErr: ErrEmptyAxis},
		{name: "huge empty output", src: nil, es: 4, shape: []int{0, 3},
			s:    Spec{Mode: Reflect, Before: []int{0, hugeDim}, After: []int{0, hugeDim}},
			want: []byte{}, wantSh: []int{0, 2*hugeDim + 3}},
		{name: "cancelling extreme pads", src: []byte{1, 2}, es: 1, shape: []int{2},
			s:     Spec{Mode: Constant, Before: []int{math.MinInt}, After: []int{math.MaxInt}},
			value: []byte{3}, want: []byte{3}, wantSh: []int{1}},
		{name: "extreme pads pad-then-crop", src: []byte{1, 2, 3}, es: 1, shape: []int{3},
			s:    Spec{Mode: Wrap, Before: []int{math.MinInt + 1}, After: []int{math.MaxInt - 1}, Order: PadThenCrop},
			want: []byte{2, 3}, wantSh: []int{2}}, // x = j + MaxInt; MaxInt mod 3 = 1
		{name: "negative output length", src: seq(1, 3), es: 1, shape: []int{3},
			s: Spec{Mode: Constant, Before: []int{-2}, After: []int{-2}}, wantErr: ErrInvalidSpec},
		{name: "pad overflow", src: seq(1, 3), es: 1, shape: []int{3},
			s: Spec{Mode: Constant, Before: []int{math.MaxInt}, After: []int{0}}, wantErr: ErrTooLarge},
		{name: "product overflow", src: nil, es: 1, shape: []int{hugeDim, hugeDim, hugeDim},
			s: Spec{Before: []int{0, 0, 0}, After: []int{0, 0, 0}}, wantErr: ErrTooLarge},
		{name: "interior in edge", src: seq(1, 3), es: 1, shape: []int{3},
			s: Spec{Mode: Edge, Before: []int{0}, After: []int{0}, Interior: []int{1}}, wantErr: ErrInvalidSpec},
		{name: "value length", src: seq(1, 4), es: 2, shape: []int{2},
			s: Spec{Before: []int{1}, After: []int{0}}, value: []byte{1}, wantErr: ErrShapeMismatch},
	}
	for _, c := range cases {
		got, gotSh, err := refPad(c.src, c.es, c.shape, c.s, c.value)
		if c.wantErr != nil {
			if !errors.Is(err, c.wantErr) {
				t.Errorf("%s: err %v, want %v", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: unexpected error %v", c.name, err)
			continue
		}
		if !bytes.Equal(got, c.want) || !slices.Equal(gotSh, c.wantSh) {
			t.Errorf("%s: got %v shape %v, want %v shape %v", c.name, got, gotSh, c.want, c.wantSh)
		}
	}
}

func TestRefPackBits(t *testing.T) {
	if got := packBits([]byte{1, 2, 3}, 4); !bytes.Equal(got, []byte{0x21, 0x03}) {
		t.Errorf("packBits 4: %x", got)
	}
	if got := packBits([]byte{1, 2, 3, 0, 3}, 2); !bytes.Equal(got, []byte{0x39, 0x03}) {
		t.Errorf("packBits 2: %x", got)
	}
	if got := unpackBits([]byte{0x21, 0xF3}, 3, 4); !bytes.Equal(got, []byte{1, 2, 3}) {
		t.Errorf("unpackBits 4: %v", got)
	}
	if got := unpackBits([]byte{0x39, 0xFF}, 5, 2); !bytes.Equal(got, []byte{1, 2, 3, 0, 3}) {
		t.Errorf("unpackBits 2: %v", got)
	}
}
