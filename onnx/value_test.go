package onnx

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tensorpad/pad"
)

// format describes a small float for the decoding oracle, independently of
// the encoder's table.
type format struct {
	name             string
	dt               DataType
	expBits, manBits int
	bias             int
	kind             string // "ieee" (inf + NaNs), "fn" (only S.1111.111 NaN), "fnuz" (0x80 NaN), "none" (no specials)
	saturate         bool
}

var formats = []format{
	{"float16", Float16, 5, 10, 15, "ieee", false},
	{"bfloat16", BFloat16, 8, 7, 127, "ieee", false},
	{"e4m3fn", Float8E4M3FN, 4, 3, 7, "fn", true},
	{"e4m3fnuz", Float8E4M3FNUZ, 4, 3, 8, "fnuz", true},
	{"e5m2", Float8E5M2, 5, 2, 15, "ieee", true},
	{"e5m2fnuz", Float8E5M2FNUZ, 5, 2, 16, "fnuz", true},
	{"e2m1", Float4E2M1, 2, 1, 1, "none", true},
}

// decode returns the value of an encoding; ok is false for NaN.
func (f format) decode(enc uint32) (v float64, ok bool) {
	width := 1 + f.expBits + f.manBits
	sign := enc >> (width - 1) & 1
	e := int(enc >> f.manBits & (1<<f.expBits - 1))
	m := float64(enc & (1<<f.manBits - 1))
	allOnes := e == 1<<f.expBits-1
	switch {
	case f.kind == "fnuz" && enc == 1<<(width-1):
		return 0, false
	case f.kind == "fn" && allOnes && m == float64(int(1)<<f.manBits-1):
		return 0, false
	case f.kind == "ieee" && allOnes && m != 0:
		return 0, false
	case f.kind == "ieee" && allOnes:
		v = math.Inf(1)
	case e == 0:
		v = m * math.Ldexp(1, 1-f.bias-f.manBits)
	default:
		v = (1 + m/math.Ldexp(1, f.manBits)) * math.Ldexp(1, e-f.bias)
	}
	if sign == 1 {
		v = -v
	}
	return v, true
}

func (f format) encode(t *testing.T, v float32) uint32 {
	b, err := attributeValue(f.dt, v)
	if err != nil {
		t.Fatalf("%s(%v): %v", f.name, v, err)
	}
	if len(b) == 2 {
		return uint32(binary.LittleEndian.Uint16(b))
	}
	return uint32(b[0])
}

// table lists the non-negative finite values in encoding order (which is
// value order), the encoding of +infinity (0 if none) and the largest value.
type table struct {
	vals   []float64
	encs   []uint32
	infEnc uint32
}

func (f format) table() table {
	var tb table
	for enc := uint32(0); enc < 1<<(f.expBits+f.manBits); enc++ {
		val, ok := f.decode(enc)
		switch {
		case !ok:
		case math.IsInf(val, 1):
			tb.infEnc = enc
		default:
			tb.vals = append(tb.vals, val)
			tb.encs = append(tb.encs, enc)
		}
	}
	if !f.saturate && tb.infEnc != 0 { // overflow rounds to infinity
		tb.vals = append(tb.vals, math.Ldexp(1, 1<<f.expBits-1-f.bias))
		tb.encs = append(tb.encs, tb.infEnc)
	}
	return tb
}

// oracle picks the encoding nearest |v| among the finite ones (plus
// infinity for formats that overflow to it, standing for the next power of
// two), ties to the even encoding; then applies the sign rules.
func (f format) oracle(tb table, v float32) (enc uint32, nan bool) {
	x := float64(v)
	if x != x {
		return 0, true
	}
	signBit := uint32(1) << (f.expBits + f.manBits)
	a := math.Abs(x)
	vals, encs := tb.vals, tb.encs
	var best uint32
	switch i, _ := slices.BinarySearch(vals, a); {
	case math.IsInf(a, 1) && tb.infEnc != 0:
		best = tb.infEnc
	case i == len(vals): // beyond the largest: saturate
		best = encs[len(encs)-1]
	case i == 0 || vals[i] == a:
		best = encs[i]
	default:
		lo, hi := a-vals[i-1], vals[i]-a
		if lo < hi || (lo == hi && encs[i-1]%2 == 0) {
			best = encs[i-1]
		} else {
			best = encs[i]
		}
	}
	if math.Signbit(x) && !(f.kind == "fnuz" && best == 0) {
		best |= signBit
	}
	return best, false
}

func TestSmallFloatRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, f := range formats {
		tb := f.table()
		var inputs []float32
		// Every representable value, its float32 neighbours and the midpoints
		// to the next encoding (ties), both signs.
		for enc := uint32(0); enc < 1<<(f.expBits+f.manBits); enc++ {
			lo, ok1 := f.decode(enc)
			hi, ok2 := f.decode(enc + 1)
			if !ok1 || math.IsInf(lo, 0) {
				continue
			}
			x := float32(lo)
			inputs = append(inputs, x, math.Nextafter32(x, 0), math.Nextafter32(x, float32(math.Inf(1))))
			if ok2 && !math.IsInf(hi, 0) {
				mid := float32((lo + hi) / 2)
				inputs = append(inputs, mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, float32(math.Inf(1))))
			}
		}
		for range 20000 {
			inputs = append(inputs, math.Float32frombits(r.Uint32()))
		}
		inputs = append(inputs, 0, float32(math.Inf(1)), float32(math.NaN()), math.MaxFloat32, math.SmallestNonzeroFloat32, 1e6, 65520, 65519.996, 464, 480, 57344, 61440, 7, 5, 0.25, 0.75)
		for _, v := range inputs {
			for _, s := range []float32{v, -v} {
				if f.dt == Float4E2M1 && s != s {
					if _, err := attributeValue(f.dt, s); !errors.Is(err, pad.ErrInvalidSpec) {
						t.Errorf("e2m1(NaN): got %v, want ErrInvalidSpec", err)
					}
					continue
				}
				got := f.encode(t, s)
				want, nan := f.oracle(tb, s)
				if nan {
					if _, ok := f.decode(got); ok {
						t.Errorf("%s(%v): got %#x, want a NaN", f.name, s, got)
					}
					continue
				}
				if got != want {
					t.Fatalf("%s(%v = %#x): got %#x, want %#x", f.name, s, math.Float32bits(s), got, want)
				}
			}
		}
	}
}

func TestE8M0Rounding(t *testing.T) {
	value := func(k int) float64 { return math.Ldexp(1, k-127) }
	r := rand.New(rand.NewPCG(7, 8))
	check := func(v float32) {
		got := encodeE8M0(v)
		a := math.Abs(float64(v))
		if a != a {
			if got != 0xFF {
				t.Errorf("e8m0(NaN) = %#x", got)
			}
			return
		}
		want, bestDist := 0, math.Inf(1)
		for k := 0; k <= 254; k++ {
			if d := math.Abs(value(k) - a); d < bestDist || (d == bestDist && k%2 == 0) {
				want, bestDist = k, d
			}
		}
		if math.IsInf(a, 1) {
			want = 254
		}
		if int(got) != want {
			t.Fatalf("e8m0(%v): got %#x, want %#x", v, got, want)
		}
	}
	for k := 0; k <= 254; k++ {
		x := float32(value(k))
		mid := float32(value(k) * 1.5)
		for _, v := range []float32{x, math.Nextafter32(x, 0), math.Nextafter32(x, float32(math.Inf(1))), mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, float32(math.Inf(1)))} {
			check(v)
			check(-v)
		}
	}
	for range 20000 {
		check(math.Float32frombits(r.Uint32()))
	}
	check(0)
	check(float32(math.Inf(1)))
	check(float32(math.NaN()))
}

func TestAttributeValueOtherTypes(t *testing.T) {
	tests := []struct {
		dt   DataType
		v    float32
		want []byte
	}{
		{Float, 1.5, []byte{0, 0, 0xC0, 0x3F}},
		{Double, -2, []byte{0, 0, 0, 0, 0, 0, 0, 0xC0}},
		{Int8, -3.7, []byte{0xFD}},
		{Uint8, 200.9, []byte{200}},
		{Int16, -2, []byte{0xFE, 0xFF}},
		{Uint16, 65535, []byte{0xFF, 0xFF}},
		{Int32, -1, []byte{0xFF, 0xFF, 0xFF, 0xFF}},
		{Uint32, 16777216, []byte{0, 0, 0, 1}},
		{Int64, -1.5, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
		{Uint64, 3, []byte{3, 0, 0, 0, 0, 0, 0, 0}},
		{Int4, -1, []byte{0xF}},
		{Uint4, 9, []byte{9}},
		{Int2, -2, []byte{2}},
		{Uint2, 3, []byte{3}},
		{Bool, 0, []byte{0}},
		{Bool, -0.5, []byte{1}},
		{Bool, float32(math.NaN()), []byte{1}},
		{Complex64, 1, []byte{0, 0, 0x80, 0x3F, 0, 0, 0, 0}},
		{Complex128, 1, []byte{0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0}},
		{Float16, 1.2, []byte{0xCD, 0x3C}},
		{BFloat16, 1.2, []byte{0x9A, 0x3F}},
	}
	for _, tc := range tests {
		got, err := attributeValue(tc.dt, tc.v)
		if err != nil || string(got) != string(tc.want) {
			t.Errorf("%v(%v): got %x (%v), want %x", tc.dt, tc.v, got, err, tc.want)
		}
	}
	for _, dt := range []DataType{String, Undefined, 99} {
		if _, err := attributeValue(dt, 1); !errors.Is(err, pad.ErrInvalidSpec) {
			t.Errorf("%v: got %v, want ErrInvalidSpec", dt, err)
		}
	}
}
