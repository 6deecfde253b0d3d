package sign

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// ExistsError is a key file already there: keys are never overwritten.
type ExistsError struct{ Path string }

func (e *ExistsError) Error() string { return e.Path + " exists; refusing to overwrite a key" }

// WriteKeyPair generates a key pair (Generate) and writes it into dir as
// ID.pem (mode 0600) and ID.pub.pem, replacing neither: a file there is an
// *ExistsError, and a failure leaves neither file behind.
func WriteKeyPair(dir, keyID string) (priv, pub string, kp *KeyPair, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", nil, err
	}
	if kp, err = Generate(); err != nil {
		return "", "", nil, err
	}
	priv, pub = filepath.Join(dir, keyID+".pem"), filepath.Join(dir, keyID+".pub.pem")
	if err := writeNew(priv, kp.PrivatePEM, 0o600); err != nil {
		return "", "", nil, err
	}
	if err := writeNew(pub, kp.PublicPEM, 0o644); err != nil {
		os.Remove(priv)
		return "", "", nil, err
	}
	return priv, pub, kp, nil
}

// writeNew creates path with data, refusing to replace an existing file.
func writeNew(path string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if errors.Is(err, fs.ErrExist) {
		return &ExistsError{Path: path}
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}
