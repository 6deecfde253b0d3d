package sigstore

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/wop-cli/wop/internal/sigstorehelper"
)

// Serve answers one helper request read from in: the wop-sigstore
// protocol of internal/sigstorehelper.
func Serve(ctx context.Context, in io.Reader) sigstorehelper.Response {
	var req sigstorehelper.Request
	if err := json.NewDecoder(io.LimitReader(in, 64<<20)).Decode(&req); err != nil {
		return sigstorehelper.Response{Protocol: sigstorehelper.Protocol, Error: "wop-sigstore reads a JSON request on stdin; it is run by wop, not by hand"}
	}
	if req.Protocol != sigstorehelper.Protocol {
		return sigstorehelper.Response{Protocol: sigstorehelper.Protocol, Error: fmt.Sprintf(
			"this wop-sigstore speaks protocol %d, but wop sent protocol %d: install the helper that comes with your wop", sigstorehelper.Protocol, req.Protocol)}
	}
	resp := serve(ctx, req)
	resp.Protocol = sigstorehelper.Protocol
	return resp
}

func serve(ctx context.Context, req sigstorehelper.Request) sigstorehelper.Response {
	services := Services{FulcioURL: req.FulcioURL, RekorURL: req.RekorURL, TSAURL: req.TSAURL}
	var resp sigstorehelper.Response
	var err error
	if req.SigningConfig != "" {
		if services, err = ServicesFromSigningConfig(req.SigningConfig); err != nil {
			return sigstorehelper.Response{Error: err.Error()}
		}
	}
	switch req.Op {
	case "sign-keyless":
		resp.Bundle, err = SignKeyless(ctx, req.Data, IDToken(req.IDToken), services)
	case "sign-key":
		resp.Bundle, err = SignWithKey(ctx, req.Data, req.KeyPEM, services)
	case "verify":
		var v *Verified
		v, err = Verify(req.Bundle, req.Data, VerifyOptions{TrustedRoot: req.TrustedRoot, PublicKey: req.PublicKeyPEM,
			Identity:           Identity{Subject: req.Subject, SubjectRegexp: req.SubjectRegexp, Issuer: req.Issuer, IssuerRegexp: req.IssuerRegexp},
			InsecureIgnoreTlog: req.InsecureIgnoreTlog})
		if err == nil {
			resp.KeyBased = v.KeyBased
			resp.Signer = fmt.Sprintf("%s (issuer %s, Sigstore)", v.Subject, v.Issuer)
			if v.KeyBased {
				resp.Signer = "the given key (Sigstore bundle)"
			}
		}
	default:
		err = fmt.Errorf("unknown operation %q", req.Op)
	}
	if err != nil {
		resp.Error = err.Error()
	}
	return resp
}
