package onnx

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/tensorpad/pad"
)

// attributeValue converts the float `value` attribute of Pad-1 and Pad-2
// (opsets 1 to 10) to one element of dt, as little-endian storage (packed
// types: the element in the low bits of one byte).
//
// Floating-point targets round to nearest, ties to even. float16 and
// bfloat16 follow IEEE 754 (overflow gives infinity). The 8-bit and 4-bit
// float types follow ONNX Cast with its default saturate=1: finite values
// beyond the largest finite value become it, and so do infinities where the
// type has none (E5M2 keeps them). NaN stays NaN; float4e2m1 has no NaN, so
// NaN is an error there. float8e8m0 (powers of two only) rounds to the
// nearest power of two, ties to the even encoding, ignoring the sign (ONNX
// Cast's own default for it rounds up; the attribute never reaches it,
// since only Pad-1/Pad-2 have the attribute and they take float types).
// Integer targets use Go's conversion (truncation toward zero), bool is
// value != 0, complex types get a zero imaginary part.
func attributeValue(dt DataType, v float32) ([]byte, error) {
	f := float64(v)
	switch dt {
	case Float:
		return binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)), nil
	case Double:
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(f)), nil
	case Float16:
		return binary.LittleEndian.AppendUint16(nil, uint16(float16.encode(v))), nil
	case BFloat16:
		return binary.LittleEndian.AppendUint16(nil, uint16(bfloat16.encode(v))), nil
	case Float8E4M3FN:
		return []byte{byte(float8e4m3fn.encode(v))}, nil
	case Float8E4M3FNUZ:
		return []byte{byte(float8e4m3fnuz.encode(v))}, nil
	case Float8E5M2:
		return []byte{byte(float8e5m2.encode(v))}, nil
	case Float8E5M2FNUZ:
		return []byte{byte(float8e5m2fnuz.encode(v))}, nil
	case Float8E8M0:
		return []byte{encodeE8M0(v)}, nil
	case Float4E2M1:
		if f != f {
			return nil, fmt.Errorf("%w: value NaN has no float4e2m1 encoding", pad.ErrInvalidSpec)
		}
		return []byte{byte(float4e2m1.encode(v))}, nil
	case Int8:
		return []byte{byte(int8(v))}, nil
	case Uint8:
		return []byte{uint8(v)}, nil
	case Int16:
		return binary.LittleEndian.AppendUint16(nil, uint16(int16(v))), nil
	case Uint16:
		return binary.LittleEndian.AppendUint16(nil, uint16(v)), nil
	case Int32:
		return binary.LittleEndian.AppendUint32(nil, uint32(int32(v))), nil
	case Uint32:
		return binary.LittleEndian.AppendUint32(nil, uint32(v)), nil
	case Int64:
		return binary.LittleEndian.AppendUint64(nil, uint64(int64(v))), nil
	case Uint64:
		return binary.LittleEndian.AppendUint64(nil, uint64(v)), nil
	case Int4:
		return []byte{byte(int8(v)) & 0xF}, nil
	case Uint4:
		return []byte{uint8(v) & 0xF}, nil
	case Int2:
		return []byte{byte(int8(v)) & 0x3}, nil
	case Uint2:
		return []byte{uint8(v) & 0x3}, nil
	case Bool:
		if v != 0 {
			return []byte{1}, nil
		}
		return []byte{0}, nil
	case Complex64:
		return binary.LittleEndian.AppendUint32(make([]byte, 0, 8), math.Float32bits(v))[:8], nil
	case Complex128:
		return binary.LittleEndian.AppendUint64(make([]byte, 0, 16), math.Float64bits(f))[:16], nil
	}
	return nil, fmt.Errorf("%w: a float value cannot be converted to %v", pad.ErrInvalidSpec, dt)
}

// smallFloat describes a binary floating-point format narrower than float32.
type smallFloat struct {
	expBits, manBits int
	bias             int
	maxFinite        float64
	inf              uint32 // encoding of +infinity, or 0 when the format has none
	nan              uint32 // encoding of a (positive) quiet NaN
	signedZero       bool   // false for the FNUZ types: -0 encodes as +0
	saturate         bool   // finite overflow gives maxFinite, not infinity
}

var (
	float16        = smallFloat{5, 10, 15, 65504, 0x7C00, 0x7E00, true, false}
	bfloat16       = smallFloat{8, 7, 127, 0x1.FEp127, 0x7F80, 0x7FC0, true, false}
	float8e4m3fn   = smallFloat{4, 3, 7, 448, 0, 0x7F, true, true}
	float8e4m3fnuz = smallFloat{4, 3, 8, 240, 0, 0x80, false, true}
	float8e5m2     = smallFloat{5, 2, 15, 57344, 0x7C, 0x7E, true, true}
	float8e5m2fnuz = smallFloat{5, 2, 16, 57344, 0, 0x80, false, true}
	float4e2m1     = smallFloat{2, 1, 1, 6, 0, 0, true, true} // no NaN: caller rejects it
)

// encode rounds v to the format, to nearest with ties to even.
func (sf smallFloat) encode(v float32) uint32 {
	f := float64(v) // exact
	signBit := uint32(1) << (sf.expBits + sf.manBits)
	var sign uint32
	if math.Signbit(f) {
		sign = signBit
	}
	if sf.nan == signBit { // FNUZ: the only NaN is the "negative zero" pattern
		if f != f {
			return sf.nan
		}
	} else if f != f {
		return sign | sf.nan
	}
	a := math.Abs(f)
	if math.IsInf(a, 0) {
		if sf.inf != 0 {
			return sign | sf.inf
		}
		a = sf.maxFinite // saturate
	}
	// Quantum (value of one unit in the last place) at a's binade, never
	// below the subnormal quantum; a/q is exact in float64, and so is r*q.
	minNormalExp := 1 - sf.bias
	_, e := math.Frexp(a) // a = frac * 2^e, frac in [0.5, 1)
	e = max(e-1, minNormalExp)
	q := math.Ldexp(1, e-sf.manBits)
	r := math.RoundToEven(a/q) * q
	if r > sf.maxFinite {
		if !sf.saturate {
			return sign | sf.inf
		}
		r = sf.maxFinite
	}
	if r == 0 {
		if !sf.signedZero {
			return 0
		}
		return sign
	}
	_, e = math.Frexp(r)
	e--
	if e < minNormalExp { // subnormal: exponent field 0
		return sign | uint32(r/math.Ldexp(1, minNormalExp-sf.manBits))
	}
	man := uint32(r/math.Ldexp(1, e-sf.manBits)) - 1<<sf.manBits
	return sign | uint32(e+sf.bias)<<sf.manBits | man
}

// encodeE8M0 rounds |v| to the nearest power of two 2^(k-127), k in
// [0, 254], ties to even k; NaN gives 0xFF, infinity and overflow 0xFE, and
// zero the smallest value 2^-127 (the format has no zero).
func encodeE8M0(v float32) byte {
	f := math.Abs(float64(v))
	switch {
	case f != f:
		return 0xFF
	case f == 0:
		return 0
	case f >= 0x1p127:
		return 0xFE
	}
	frac, e := math.Frexp(f) // f = frac * 2^e, frac in [0.5, 1): between 2^(e-1) and 2^e
	k := e - 1 + 127         // encoding of the lower neighbour
	switch {
	case frac > 0.75:
		k++
	case frac == 0.75 && k%2 != 0: // tie: midpoint 1.5 * 2^(e-1)
		k++
	}
	return byte(min(max(k, 0), 254))
}
