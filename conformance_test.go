package pad

// Conformance vectors: every case of ../shared/conformance/*.json (ONNX backend
// data, ONNX Runtime, OpenVINO, nGraph/XLA/StableHLO) is run through the core
// API: NewPlan + RunBytes (or RunPacked for packed 4-/2-bit types), the typed
// API Run[T] with the matching Go type, Pad[T] and Into[T]. All of them must
// produce exactly the expected bytes and shape.
//
// Expected failures (the "error" field) are classified explicitly:
//   - rejected by the reference refPad too: the package must fail with the same
//     sentinel error (see confExpectedErrors);
//   - a by-design difference of SEMANTICS.md §9 (see confByDesign): the package
//     must succeed and match refPad's output;
//   - anything else fails the test, so a new failure mode in the data is never
//     accepted silently.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// conformanceDir is relative to the package directory (the repo root).
const conformanceDir = "../shared/conformance"

// conformanceFiles are the four vector files; every one of them must exist
// when the directory does.
var conformanceFiles = []string{
	"onnx_backend.json",
	"ort_pad_test.json",
	"openvino_pad.json",
	"xla_pad.json",
}

type confCase struct {
	Name      string          `json:"name"`
	Source    string          `json:"source"`
	Dtype     string          `json:"dtype"`
	Shape     []int           `json:"shape"`
	Data      json.RawMessage `json:"data"`
	Mode      string          `json:"mode"`
	PadsBegin []int           `json:"pads_begin"`
	PadsEnd   []int           `json:"pads_end"`
	Interior  []int           `json:"interior"`
	Value     json.RawMessage `json:"value"`
	Order     string          `json:"negative_pads_order"`
	Limits    string          `json:"limits"`
	OutShape  []int           `json:"out_shape"`
	Out       json.RawMessage `json:"out"`
	Error     *string         `json:"error"`
	Legacy    json.RawMessage `json:"onnx_legacy"`
	Note      string          `json:"note"`
}

// confByDesign lists the expected failures of the sources that SEMANTICS.md §9
// defines differently: the package returns a result (equal to refPad's)
// instead of an error. Matching is by case-name prefix.
var confByDesign = []struct {
	prefix string
	check  func(c *confCase) bool // extra sanity check on the case
	why    string
}{
	{
		prefix: "ort/Pad_Reflect_NegativeFront_PositiveBack/",
		check:  func(c *confCase) bool { return c.Mode == "reflect" },
		why:    "ORT rejects reflect on an axis of length 1 after cropping; §9: length 1 repeats",
	},
	{
		prefix: "openvino/pad_to_large_",
		check:  func(c *confCase) bool { return c.Limits == "single" },
		why:    "OpenVINO Pad-1 limits reflect/symmetric pad sizes; §9: enforced in the OpenVINO front-end only",
	},
}

// confExpectedErrors classifies the expected failures that the core rejects too,
// with the sentinel it must report (api.md "Which sentinel for what").
var confExpectedErrors = []struct {
	prefix string
	want   error
	why    string
}{
	{"ort/Pad_Edge_DimWithZeroInput#", ErrEmptyAxis, "edge pad of an axis of length 0"},
	{"ort/Pad_Reflect_DimWithZeroInput#", ErrEmptyAxis, "reflect pad of an axis of length 0"},
	{"ort/EdgeMode_ZeroExtentFails/", ErrEmptyAxis, "edge pad of a window of length 0 after cropping"},
}

var confSentinels = []struct {
	name string
	err  error
}{
	{"ErrInvalidSpec", ErrInvalidSpec},
	{"ErrShapeMismatch", ErrShapeMismatch},
	{"ErrEmptyAxis", ErrEmptyAxis},
	{"ErrTooLarge", ErrTooLarge},
	{"ErrOverlap", ErrOverlap},
}

// sentinelOf returns the first package sentinel err wraps, or nil.
func confSentinelOf(err error) error {
	for _, s := range confSentinels {
		if errors.Is(err, s.err) {
			return s.err
		}
	}
	return nil
}

func confSentinelName(err error) string {
	for _, s := range confSentinels {
		if err == s.err {
			return s.name
		}
	}
	return fmt.Sprintf("%v", err)
}

// elemBytes is the storage size of one element of a whole-byte dtype.
func confElemBytes(dtype string) (int, bool) {
	switch dtype {
	case "bool", "int8", "uint8",
		"float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "float8e8m0":
		return 1, true
	case "int16", "uint16", "float16", "bfloat16":
		return 2, true
	case "int32", "uint32", "float32":
		return 4, true
	case "int64", "uint64", "float64", "complex64":
		return 8, true
	case "complex128":
		return 16, true
	}
	return 0, false
}

// packedBits is the width of a packed sub-byte dtype.
func confPackedBits(dtype string) (int, bool) {
	switch dtype {
	case "int4", "uint4", "float4e2m1":
		return 4, true
	case "int2", "uint2":
		return 2, true
	}
	return 0, false
}

func confProduct(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func confDecodeHex(raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	return hex.DecodeString(s)
}

// --- reinterpretation helpers for the typed API (bit-exact, aligned) ---

func confFromBytes[T any](b []byte) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	s := make([]T, len(b)/size)
	if len(s) > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*size), b)
	}
	return s
}

func confToBytes[T any](s []T) []byte {
	var zero T
	size := int(unsafe.Sizeof(zero))
	b := make([]byte, len(s)*size)
	if len(s) > 0 {
		copy(b, unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*size))
	}
	return b
}

// confTypedResult is what the typed API produced for one case.
type confTypedResult struct {
	runErr   error
	run      []byte // Run[T] into a fresh dst
	intoErr  error
	into     []byte // Into[T]
	padErr   error
	pad      []byte // Pad[T]
	padShape []int
}

// runTyped runs the case through Run[T] (with plan p, if non-nil), Into[T]
// and Pad[T], with T of size es.
func confRunTyped[T any](t *testing.T, p *Plan, s Spec, shape []int, src, value []byte, es, outElems int) confTypedResult {
	t.Helper()
	var zero T
	if got := int(unsafe.Sizeof(zero)); got != es {
		t.Fatalf("test bug: Go type %T has size %d, dtype element size %d", zero, got, es)
	}
	in := confFromBytes[T](src)
	v := zero
	if len(value) > 0 {
		v = confFromBytes[T](value)[0]
	}
	var r confTypedResult
	if p != nil {
		dst := make([]T, outElems)
		r.runErr = Run(p, dst, in, v)
		r.run = confToBytes(dst)
		dst2 := make([]T, outElems)
		r.intoErr = Into(dst2, in, shape, s, v)
		r.into = confToBytes(dst2)
	}
	out, outShape, err := Pad(in, shape, s, v)
	r.padErr, r.pad, r.padShape = err, confToBytes(out), outShape
	return r
}

// runTypedFor dispatches on dtype; ok is false for a dtype without a Go type.
func confRunTypedFor(t *testing.T, dtype string, p *Plan, s Spec, shape []int, src, value []byte, es, outElems int) (confTypedResult, bool) {
	t.Helper()
	switch dtype {
	case "float32":
		return confRunTyped[float32](t, p, s, shape, src, value, es, outElems), true
	case "float64":
		return confRunTyped[float64](t, p, s, shape, src, value, es, outElems), true
	case "int8":
		return confRunTyped[int8](t, p, s, shape, src, value, es, outElems), true
	case "uint8", "float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "float8e8m0":
		return confRunTyped[uint8](t, p, s, shape, src, value, es, outElems), true
	case "int16":
		return confRunTyped[int16](t, p, s, shape, src, value, es, outElems), true
	case "uint16", "float16", "bfloat16":
		return confRunTyped[uint16](t, p, s, shape, src, value, es, outElems), true
	case "int32":
		return confRunTyped[int32](t, p, s, shape, src, value, es, outElems), true
	case "uint32":
		return confRunTyped[uint32](t, p, s, shape, src, value, es, outElems), true
	case "int64":
		return confRunTyped[int64](t, p, s, shape, src, value, es, outElems), true
	case "uint64":
		return confRunTyped[uint64](t, p, s, shape, src, value, es, outElems), true
	case "bool":
		for _, b := range src {
			if b > 1 {
				t.Fatalf("bool data byte %#x is not 0 or 1", b)
			}
		}
		for _, b := range value {
			if b > 1 {
				t.Fatalf("bool value byte %#x is not 0 or 1", b)
			}
		}
		return confRunTyped[bool](t, p, s, shape, src, value, es, outElems), true
	case "complex64":
		return confRunTyped[complex64](t, p, s, shape, src, value, es, outElems), true
	case "complex128":
		return confRunTyped[complex128](t, p, s, shape, src, value, es, outElems), true
	}
	return confTypedResult{}, false
}

// --- packed sub-byte helpers (api.md: element e at bit (e*bits)%8 of byte e*bits/8) ---

func confUnpack(b []byte, bits, n int) []byte {
	out := make([]byte, n)
	mask := byte(1<<bits - 1)
	for e := 0; e < n; e++ {
		out[e] = (b[e*bits/8] >> ((e * bits) % 8)) & mask
	}
	return out
}

func confPack(v []byte, bits int) []byte {
	out := make([]byte, (len(v)*bits+7)/8)
	for e, x := range v {
		out[e*bits/8] |= x << ((e * bits) % 8)
	}
	return out
}

// --- the test ---

type confCounts struct {
	run, output, expectedErr, confByDesign, failed int
}

func TestConformance(t *testing.T) {
	if fi, err := os.Stat(conformanceDir); err != nil || !fi.IsDir() {
		abs, _ := filepath.Abs(conformanceDir)
		t.Skipf("conformance vectors not found at %s (%s): %v", conformanceDir, abs, err)
	}
	counts := map[string]*confCounts{}
	for _, file := range conformanceFiles {
		file := file
		cnt := &confCounts{}
		counts[file] = cnt
		t.Run(strings.TrimSuffix(file, ".json"), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(conformanceDir, file))
			if err != nil {
				t.Fatalf("read %s: %v", file, err)
			}
			var cases []confCase
			if err := json.Unmarshal(raw, &cases); err != nil {
				t.Fatalf("decode %s: %v", file, err)
			}
			if len(cases) == 0 {
				t.Fatalf("%s holds no cases", file)
			}
			seen := map[string]bool{}
			for i := range cases {
				c := &cases[i]
				if seen[c.Name] {
					t.Errorf("duplicate case name %q", c.Name)
				}
				seen[c.Name] = true
				cnt.run++
				var kind string
				// Every case runs twice: small outputs through the gather
				// table, then through the executor.
				ok := t.Run(c.Name, func(t *testing.T) {
					kind = confRunCase(t, c)
					withoutGather(func() { confRunCase(t, c) })
				})
				switch {
				case !ok:
					cnt.failed++
				case kind == "output":
					cnt.output++
				case kind == "error":
					cnt.expectedErr++
				case kind == "bydesign":
					cnt.confByDesign++
				}
			}
			t.Logf("%s: %d cases run, %d passed as output, %d passed as expected error, %d by-design differences (§9), %d failed",
				file, cnt.run, cnt.output, cnt.expectedErr, cnt.confByDesign, cnt.failed)
		})
	}
	var tot confCounts
	var lines []string
	for _, f := range conformanceFiles {
		c := counts[f]
		tot.run += c.run
		tot.output += c.output
		tot.expectedErr += c.expectedErr
		tot.confByDesign += c.confByDesign
		tot.failed += c.failed
		lines = append(lines, fmt.Sprintf("  %-18s run %4d  output %4d  expected-error %3d  by-design %2d  failed %3d",
			f, c.run, c.output, c.expectedErr, c.confByDesign, c.failed))
	}
	t.Logf("conformance summary:\n%s\n  %-18s run %4d  output %4d  expected-error %3d  by-design %2d  failed %3d",
		strings.Join(lines, "\n"), "total", tot.run, tot.output, tot.expectedErr, tot.confByDesign, tot.failed)
}

// runConfCase runs one case and returns how it passed: "output",
// "error" (expected failure, same sentinel as refPad) or "bydesign".
func confRunCase(t *testing.T, c *confCase) string {
	if c.Dtype == "string" {
		return confRunStringCase(t, c)
	}

	spec := Spec{
		Before:   append([]int(nil), c.PadsBegin...),
		After:    append([]int(nil), c.PadsEnd...),
		Interior: append([]int(nil), c.Interior...),
		Order:    CropThenPad,
	}
	if c.Interior == nil {
		spec.Interior = nil
	}
	mode, err := ParseMode(c.Mode)
	if err != nil {
		t.Fatalf("ParseMode(%q): %v", c.Mode, err)
	}
	spec.Mode = mode
	if c.Order == "pad_then_crop" {
		spec.Order = PadThenCrop
	}

	data, err := confDecodeHex(c.Data)
	if err != nil {
		t.Fatalf("data: %v", err)
	}
	value, err := confDecodeHex(c.Value)
	if err != nil {
		t.Fatalf("value: %v", err)
	}

	bits, packed := confPackedBits(c.Dtype)
	es, whole := confElemBytes(c.Dtype)
	if !packed && !whole {
		t.Fatalf("unknown dtype %q", c.Dtype)
	}
	inElems := confProduct(c.Shape)

	// The reference works on whole-byte elements; packed types are unpacked
	// to one byte per element for it.
	refSrc, refES, refVal := data, es, value
	if packed {
		if len(data) != (inElems*bits+7)/8 {
			t.Fatalf("data has %d bytes, shape %v of %d-bit elements needs %d", len(data), c.Shape, bits, (inElems*bits+7)/8)
		}
		refSrc, refES = confUnpack(data, bits, inElems), 1
		if len(value) > 1 {
			t.Fatalf("packed value has %d bytes", len(value))
		}
	} else {
		if len(data) != inElems*es {
			t.Fatalf("data has %d bytes, shape %v of %s needs %d", len(data), c.Shape, c.Dtype, inElems*es)
		}
		if len(value) != 0 && len(value) != es {
			t.Fatalf("value has %d bytes, element size %d", len(value), es)
		}
	}
	refOut, refShape, refErr := refPad(refSrc, refES, append([]int(nil), c.Shape...), spec, refVal)

	wantShape, kind := c.OutShape, "output"
	var want []byte
	if c.Error != nil {
		if c.Out != nil || c.OutShape != nil {
			t.Fatalf("case has both error and out/out_shape")
		}
		var bd string
		for _, b := range confByDesign {
			if strings.HasPrefix(c.Name, b.prefix) {
				if !b.check(c) {
					t.Fatalf("case matches by-design prefix %q but not its description (%s)", b.prefix, b.why)
				}
				bd = b.why
			}
		}
		if bd != "" {
			// Documented difference: our result is refPad's.
			if refErr != nil {
				t.Fatalf("by-design case (%s): refPad rejects it: %v", bd, refErr)
			}
			wantShape, want, kind = refShape, refOut, "bydesign"
			if packed {
				want = confPack(refOut, bits)
			}
			t.Logf("by-design difference (%s); source error: %s", bd, *c.Error)
		} else {
			if refErr == nil {
				t.Fatalf("expected failure %q is accepted by refPad but is not on the by-design allow-list; classify it", *c.Error)
			}
			wantErr := confSentinelOf(refErr)
			if wantErr == nil {
				t.Fatalf("refPad error %v wraps no package sentinel", refErr)
			}
			classified := false
			for _, e := range confExpectedErrors {
				if strings.HasPrefix(c.Name, e.prefix) {
					classified = true
					if e.want != wantErr {
						t.Fatalf("classification says %s (%s) but refPad reports %s: %v",
							confSentinelName(e.want), e.why, confSentinelName(wantErr), refErr)
					}
				}
			}
			if !classified {
				t.Logf("unclassified expected failure %q: using refPad's sentinel %s", *c.Error, confSentinelName(wantErr))
			}
			confCheckError(t, c, spec, data, value, es, packed, wantErr)
			return "error"
		}
	} else {
		if c.Out == nil || c.OutShape == nil {
			t.Fatalf("case has neither error nor out/out_shape")
		}
		if want, err = confDecodeHex(c.Out); err != nil {
			t.Fatalf("out: %v", err)
		}
		// Cross-check the reference against the vector (a mismatch here is
		// a reference_test.go problem, reported separately).
		if refErr != nil {
			t.Errorf("refPad rejects a case with an expected output: %v (reference_test.go?)", refErr)
		} else {
			refPacked := refOut
			if packed {
				refPacked = confPack(refOut, bits)
			}
			if !reflect.DeepEqual(refShape, wantShape) || !bytes.Equal(refPacked, want) {
				t.Errorf("refPad disagrees with the vector (reference_test.go?): shape %v want %v", refShape, wantShape)
			}
		}
	}

	outElems := confProduct(wantShape)
	if packed {
		if len(want) != (outElems*bits+7)/8 {
			t.Fatalf("out has %d bytes, shape %v of %d-bit elements needs %d", len(want), wantShape, bits, (outElems*bits+7)/8)
		}
	} else if len(want) != outElems*es {
		t.Fatalf("out has %d bytes, shape %v of %s needs %d", len(want), wantShape, c.Dtype, outElems*es)
	}

	// Spec.OutShape.
	if got, err := spec.OutShape(append([]int(nil), c.Shape...)); err != nil {
		t.Errorf("Spec.OutShape: %v", err)
	} else if !slices.Equal(got, wantShape) {
		t.Errorf("Spec.OutShape = %v, want %v", got, wantShape)
	}

	// NewPlan + RunBytes / RunPacked.
	p, err := NewPlan(append([]int(nil), c.Shape...), spec)
	if err != nil {
		t.Fatalf("NewPlan(%v, %+v): %v", c.Shape, spec, err)
	}
	if got := p.InShape(); !slices.Equal(got, c.Shape) {
		t.Errorf("Plan.InShape = %v, want %v", got, c.Shape)
	}
	if got := p.OutShape(); !slices.Equal(got, wantShape) {
		t.Fatalf("Plan.OutShape = %v, want %v", got, wantShape)
	}

	if packed {
		var v uint8
		if len(value) == 1 {
			v = value[0]
		}
		dst := bytes.Repeat([]byte{0xA5}, len(want))
		if err := p.RunPacked(dst, data, bits, v); err != nil {
			t.Fatalf("RunPacked: %v", err)
		}
		if !bytes.Equal(dst, want) {
			t.Errorf("RunPacked output differs:\n got %x\nwant %x", dst, want)
		}
		// Typed cross-check: one uint8 per element.
		dst8 := make([]uint8, outElems)
		if err := Run(p, dst8, confUnpack(data, bits, inElems), v); err != nil {
			t.Errorf("Run[uint8] on unpacked elements: %v", err)
		} else if got := confPack(dst8, bits); !bytes.Equal(got, want) {
			t.Errorf("Run[uint8] on unpacked elements differs:\n got %x\nwant %x", got, want)
		}
		return kind
	}

	dst := bytes.Repeat([]byte{0xA5}, len(want))
	if err := p.RunBytes(dst, data, es, value); err != nil {
		t.Fatalf("RunBytes: %v", err)
	}
	if !bytes.Equal(dst, want) {
		t.Errorf("RunBytes output differs%s", confFirstDiff(dst, want, es, wantShape))
	}

	tr, ok := confRunTypedFor(t, c.Dtype, p, spec, append([]int(nil), c.Shape...), data, value, es, outElems)
	if !ok {
		t.Fatalf("no Go type for dtype %q", c.Dtype)
	}
	if tr.runErr != nil {
		t.Errorf("Run[T]: %v", tr.runErr)
	} else if !bytes.Equal(tr.run, want) {
		t.Errorf("Run[T] output differs%s", confFirstDiff(tr.run, want, es, wantShape))
	}
	if tr.intoErr != nil {
		t.Errorf("Into[T]: %v", tr.intoErr)
	} else if !bytes.Equal(tr.into, want) {
		t.Errorf("Into[T] output differs%s", confFirstDiff(tr.into, want, es, wantShape))
	}
	if tr.padErr != nil {
		t.Errorf("Pad[T]: %v", tr.padErr)
	} else {
		if !slices.Equal(tr.padShape, wantShape) {
			t.Errorf("Pad[T] shape = %v, want %v", tr.padShape, wantShape)
		}
		if !bytes.Equal(tr.pad, want) {
			t.Errorf("Pad[T] output differs%s", confFirstDiff(tr.pad, want, es, wantShape))
		}
	}
	return kind
}

// checkConfError asserts that every entry point rejects the case with want.
func confCheckError(t *testing.T, c *confCase, spec Spec, data, value []byte, es int, packed bool, want error) {
	t.Helper()
	p, err := NewPlan(append([]int(nil), c.Shape...), spec)
	if err == nil {
		t.Errorf("NewPlan accepted a case that must fail with %s (out shape %v)", confSentinelName(want), p.OutShape())
	} else if !errors.Is(err, want) {
		t.Errorf("NewPlan error %q does not wrap %s", err, confSentinelName(want))
	}
	if packed {
		return
	}
	tr, ok := confRunTypedFor(t, c.Dtype, nil, spec, append([]int(nil), c.Shape...), data, value, es, 0)
	if !ok {
		t.Fatalf("no Go type for dtype %q", c.Dtype)
	}
	if tr.padErr == nil {
		t.Errorf("Pad[T] accepted a case that must fail with %s (shape %v)", confSentinelName(want), tr.padShape)
	} else if !errors.Is(tr.padErr, want) {
		t.Errorf("Pad[T] error %q does not wrap %s", tr.padErr, confSentinelName(want))
	}
}

// runConfStringCase handles dtype "string" (data/out/value as JSON strings);
// no vector uses it today.
func confRunStringCase(t *testing.T, c *confCase) string {
	var data, want []string
	if err := json.Unmarshal(c.Data, &data); err != nil {
		t.Fatalf("string data: %v", err)
	}
	var value string
	if len(c.Value) > 0 && string(c.Value) != "null" {
		if err := json.Unmarshal(c.Value, &value); err != nil {
			var one []string
			if err2 := json.Unmarshal(c.Value, &one); err2 != nil || len(one) != 1 {
				t.Fatalf("string value: %v", err)
			}
			value = one[0]
		}
	}
	mode, err := ParseMode(c.Mode)
	if err != nil {
		t.Fatalf("ParseMode(%q): %v", c.Mode, err)
	}
	spec := Spec{Mode: mode, Before: c.PadsBegin, After: c.PadsEnd, Interior: c.Interior}
	if c.Order == "pad_then_crop" {
		spec.Order = PadThenCrop
	}
	if c.Error != nil {
		if _, _, err := Pad(data, c.Shape, spec, value); err == nil {
			t.Fatalf("string case must fail (%s) but Pad accepted it", *c.Error)
		}
		return "error"
	}
	if err := json.Unmarshal(c.Out, &want); err != nil {
		t.Fatalf("string out: %v", err)
	}
	p, err := NewPlan(c.Shape, spec)
	if err != nil {
		t.Fatalf("NewPlan: %v", err)
	}
	if !slices.Equal(p.OutShape(), c.OutShape) {
		t.Fatalf("Plan.OutShape = %v, want %v", p.OutShape(), c.OutShape)
	}
	dst := make([]string, len(want))
	if err := Run(p, dst, data, value); err != nil {
		t.Fatalf("Run[string]: %v", err)
	}
	if !reflect.DeepEqual(dst, want) {
		t.Errorf("Run[string] = %q, want %q", dst, want)
	}
	out, shape, err := Pad(data, c.Shape, spec, value)
	if err != nil {
		t.Fatalf("Pad[string]: %v", err)
	}
	if !slices.Equal(shape, c.OutShape) || !reflect.DeepEqual(out, want) {
		t.Errorf("Pad[string] = %q shape %v, want %q shape %v", out, shape, want, c.OutShape)
	}
	return "output"
}

// firstDiff describes the first differing element of got and want.
func confFirstDiff(got, want []byte, es int, shape []int) string {
	if len(got) != len(want) {
		return fmt.Sprintf(": %d bytes, want %d", len(got), len(want))
	}
	ndiff, first := 0, -1
	for e := 0; e*es < len(want); e++ {
		if !bytes.Equal(got[e*es:(e+1)*es], want[e*es:(e+1)*es]) {
			if first < 0 {
				first = e
			}
			ndiff++
		}
	}
	if first < 0 {
		return ""
	}
	// Multi-index of the first differing element.
	idx := make([]int, len(shape))
	r := first
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] > 0 {
			idx[i] = r % shape[i]
			r /= shape[i]
		}
	}
	return fmt.Sprintf(": %d of %d elements differ; first at flat %d index %v: got %x want %x",
		ndiff, len(want)/es, first, idx, got[first*es:(first+1)*es], want[first*es:(first+1)*es])
}
