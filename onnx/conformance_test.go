package onnx_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/tensorpad/pad"
	"github.com/tensorpad/pad/internal/padtest"
	"github.com/tensorpad/pad/onnx"
)

var dtypeByName = map[string]onnx.DataType{
	"float32": onnx.Float, "float64": onnx.Double, "float16": onnx.Float16, "bfloat16": onnx.BFloat16,
	"int8": onnx.Int8, "int16": onnx.Int16, "int32": onnx.Int32, "int64": onnx.Int64,
	"uint8": onnx.Uint8, "uint16": onnx.Uint16, "uint32": onnx.Uint32, "uint64": onnx.Uint64,
	"bool": onnx.Bool, "string": onnx.String, "complex64": onnx.Complex64, "complex128": onnx.Complex128,
	"int4": onnx.Int4, "uint4": onnx.Uint4, "float4e2m1": onnx.Float4E2M1,
	"float8e4m3fn": onnx.Float8E4M3FN, "float8e4m3fnuz": onnx.Float8E4M3FNUZ,
	"float8e5m2": onnx.Float8E5M2, "float8e5m2fnuz": onnx.Float8E5M2FNUZ, "float8e8m0": onnx.Float8E8M0,
	"int2": onnx.Int2, "uint2": onnx.Uint2,
}

// wrapsSentinel reports whether err wraps one of the core's error kinds.
func wrapsSentinel(err error) bool {
	for _, s := range []error{pad.ErrInvalidSpec, pad.ErrShapeMismatch, pad.ErrEmptyAxis, pad.ErrTooLarge} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// attributeValue recovers the float `value` attribute a pre-opset-11 run of
// a case used: the stored `value_attribute`, or else the case's value (ORT
// runs its float and double tests at opset 10 with the same value).
func attributeValue(t *testing.T, c *padtest.Case, n *padtest.ONNXNode) float32 {
	t.Helper()
	if n.ValueAttribute != nil {
		return float32(*n.ValueAttribute)
	}
	b := c.ValueBytes(t)
	switch {
	case b == nil:
		return 0
	case c.DType == "float32":
		return math.Float32frombits(binary.LittleEndian.Uint32(b))
	case c.DType == "float64":
		f := math.Float64frombits(binary.LittleEndian.Uint64(b))
		if float64(float32(f)) != f {
			t.Fatalf("%s: value %v is not a float32, cannot be the attribute", c.Name, f)
		}
		return float32(f)
	}
	t.Fatalf("%s: %s case run below opset 11", c.Name, c.DType)
	return 0
}

// reference computes a case independently (padtest.Reference, crop-then-pad
// as ONNX defines negative pads) from its normalised pads_begin/pads_end.
func reference(t *testing.T, c *padtest.Case) ([]byte, []int, error) {
	return padtest.Reference(padtest.Ref{
		Shape: c.Shape, Bits: padtest.Bits[c.DType], Data: padtest.Bytes(t, c.Data), Mode: c.Mode,
		Before: c.PadsBegin, After: c.PadsEnd, Value: c.ValueBytes(t),
	})
}

// runCase runs one case under one opset as an ONNX node.
func runCase(t *testing.T, c *padtest.Case, n *padtest.ONNXNode, opset int) ([]byte, []int, error) {
	dt, ok := dtypeByName[c.DType]
	if !ok {
		t.Fatalf("unknown dtype %q", c.DType)
	}
	node := onnx.Node{Opset: opset, Mode: c.Mode, Pads: n.Pads, Axes: n.Axes}
	var constantValue []byte
	if opset < 11 {
		node.Value = attributeValue(t, c, n)
	} else {
		constantValue = c.ValueBytes(t)
	}
	return onnx.Pad(node, dt, c.Shape, padtest.Bytes(t, c.Data), constantValue)
}

type counts struct{ cases, runs, legacySkipped, byDesign, expectedErrors, expectedErrorCases int }

func (k counts) String() string {
	return fmt.Sprintf("%d cases run as %d nodes (case x opset); %d expected-failure cases (%d runs) rejected, %d by-design differences checked against the reference; %d onnx_legacy cases skipped",
		k.cases, k.runs, k.expectedErrorCases, k.expectedErrors, k.byDesign, k.legacySkipped)
}

func runONNXFile(t *testing.T, file string) counts {
	var k counts
	for _, c := range padtest.Load(t, file) {
		t.Run(c.Name, func(t *testing.T) {
			if c.ONNXLegacy != nil {
				k.legacySkipped++
				checkLegacy(t, &c)
				return
			}
			if c.ONNX == nil {
				t.Fatalf("case has neither onnx nor onnx_legacy")
			}
			opsets := c.ONNX.OpsetsRun
			if len(opsets) == 0 {
				opsets = []int{c.ONNX.Opset}
			}
			k.cases++
			if c.Error != nil {
				if _, _, err := reference(t, &c); err != nil {
					k.expectedErrorCases++
				}
			}
			for _, opset := range opsets {
				k.runs++
				out, shape, err := runCase(t, &c, c.ONNX, opset)
				if err != nil && !wrapsSentinel(err) {
					t.Errorf("opset %d: error wraps no core sentinel: %v", opset, err)
				}
				if c.Error == nil {
					if err != nil {
						t.Errorf("opset %d: %v", opset, err)
					} else if !slices.Equal(shape, c.OutShape) || !bytes.Equal(out, padtest.Bytes(t, c.Out)) {
						t.Errorf("opset %d: got shape %v, want %v, or the bytes differ", opset, shape, c.OutShape)
					}
					continue
				}
				refOut, refShape, refErr := reference(t, &c)
				if refErr != nil { // the source's failure is ours too
					k.expectedErrors++
					if err == nil {
						t.Errorf("opset %d: source expects failure (%s), our semantics reject it too (%v), but Pad accepted", opset, *c.Error, refErr)
					}
					continue
				}
				// A by-design difference (SEMANTICS §9): the source fails, we pad.
				k.byDesign++
				if err != nil {
					t.Errorf("opset %d: by-design difference must be accepted: %v", opset, err)
				} else if !slices.Equal(shape, refShape) || !bytes.Equal(out, refOut) {
					t.Errorf("opset %d: got shape %v, reference %v, or the bytes differ", opset, shape, refShape)
				}
				t.Logf("opset %d: source rejects (%s); ours pads like the independent reference, shape %v", opset, *c.Error, refShape)
			}
		})
	}
	return k
}

// checkLegacy documents why an onnx_legacy case is skipped, and checks that
// its interleaved pads, fed as-is, do not reproduce the stored output.
func checkLegacy(t *testing.T, c *padtest.Case) {
	t.Logf("skipped: 2017 data with interleaved pads (%s), not ONNX's layout; SEMANTICS §9 does not accept them as ONNX pads", c.ONNXLegacy.PadsLayout)
	out, shape, err := runCase(t, c, c.ONNXLegacy, c.ONNXLegacy.Opset)
	if err == nil && slices.Equal(shape, c.OutShape) && bytes.Equal(out, padtest.Bytes(t, c.Out)) {
		t.Errorf("the interleaved pads %v reproduce the stored output; the case should not be legacy", c.ONNXLegacy.Pads)
	}
}

func TestConformanceONNXBackend(t *testing.T) {
	k := runONNXFile(t, "onnx_backend.json")
	t.Logf("onnx front-end, onnx_backend.json: %v", k)
	if k.cases == 0 {
		t.Error("no case ran")
	}
}

func TestConformanceORT(t *testing.T) {
	k := runONNXFile(t, "ort_pad_test.json")
	t.Logf("onnx front-end, ort_pad_test.json: %v", k)
	if k.byDesign == 0 || k.expectedErrors == 0 {
		t.Errorf("expected both by-design differences and shared failures among ORT's expected failures: %v", k)
	}
}
