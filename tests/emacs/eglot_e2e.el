;;; eglot_e2e.el --- memory-index-lsp through Emacs's own LSP client, eglot  -*- lexical-binding: t -*-

;; End-to-end test of the language server in Emacs 30 with the built-in eglot:
;;
;;   SERVER=/path/to/memory-index-lsp emacs --batch -Q -l tests/emacs/eglot_e2e.el WORKSPACE
;;
;; WORKSPACE is a scratch copy of fixtures/demo (run.sh makes one); the test
;; edits buffers and never saves. One line per check (PASS/FAIL), then
;; "N passed, N failed"; exit status 1 on a failure. Checks: the client
;; attaches (UTF-8 positions), diagnostics of the open index, diagnostics of a
;; decision file that was never opened (eglot keeps them for
;; `flymake-show-project-diagnostics'), hover, go to definition (xref),
;; completion (completion-at-point's table), and rename (eglot-rename).

(require 'eglot)
(require 'xref)
(require 'flymake)

(defvar mi-passed 0)
(defvar mi-failed 0)
(defvar mi-timeout (string-to-number (or (getenv "MI_EMACS_TIMEOUT") "15")))

(defun mi-out (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(defun mi-report (name ok detail)
  (if ok (setq mi-passed (1+ mi-passed)) (setq mi-failed (1+ mi-failed)))
  (mi-out "%s %s: %s" (if ok "PASS" "FAIL") name detail))

(defmacro mi-check (name &rest body)
  "Run BODY, which returns (OK . DETAIL); an error is a failure of NAME only."
  (declare (indent 1))
  `(condition-case err
       (let ((r (progn ,@body))) (mi-report ,name (car r) (cdr r)))
     (error (mi-report ,name nil (format "Lisp error: %S" err)))))

(defun mi-wait (pred)
  "Process events until PRED returns non-nil or `mi-timeout' seconds pass."
  (let ((deadline (+ (float-time) mi-timeout)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    v))

(defun mi-finish ()
  (ignore-errors (eglot-shutdown-all))
  (mi-out "%d passed, %d failed" mi-passed mi-failed)
  (kill-emacs (if (> mi-failed 0) 1 0)))

(define-derived-mode mi-markdown-mode text-mode "MI-Markdown"
  "Markdown for this test: Emacs has no markdown-mode built in.")

(let* ((workspace (file-name-as-directory (expand-file-name (or (car command-line-args-left) ""))))
       (server (or (getenv "SERVER") "memory-index-lsp"))
       (index (expand-file-name "agents/memory-index.md" workspace))
       (ops (expand-file-name "agents/decisions/operations.md" workspace))
       (testing (expand-file-name "agents/decisions/testing.md" workspace)))
  (setq command-line-args-left nil)
  (unless (file-readable-p index)
    (mi-out "FAIL setup: no %s (usage: emacs --batch -Q -l eglot_e2e.el WORKSPACE)" index)
    (kill-emacs 1))
  (mi-out "workspace: %s" workspace)
  (mi-out "server: %s" server)
  (mi-out "emacs: %s, eglot %s" emacs-version (or (bound-and-true-p eglot-version) "1.17+"))
  (setq eglot-server-programs `(((mi-markdown-mode :language-id "markdown") . (,server "serve")))
        eglot-sync-connect t
        eglot-autoshutdown nil
        eglot-events-buffer-config '(:size 0)
        create-lockfiles nil
        make-backup-files nil)
  (add-to-list 'auto-mode-alist '("\\.md\\'" . mi-markdown-mode))
  ;; The workspace is the project (no VCS needed).
  (add-hook 'project-find-functions (lambda (_dir) (cons 'transient workspace)))

  ;; 1. Opening the index and `M-x eglot' attach the server. (`eglot-ensure'
  ;; connects after the next command, which a batch run never has.)
  (find-file index)
  (switch-to-buffer (current-buffer))
  (apply #'eglot (eglot--guess-contact))
  (let ((server-obj (mi-wait (lambda () (eglot-current-server)))))
    (mi-report "attach" server-obj
               (if server-obj
                   (format "%s, positions %s" (eglot-project-nickname server-obj)
                           (plist-get (eglot--capabilities server-obj) :positionEncoding))
                 "no eglot server for the index"))
    (unless server-obj (mi-finish)))

  (defun mi-goto (regexp &optional back)
    (goto-char (point-min))
    (re-search-forward regexp)
    (when back (goto-char (match-beginning 0)))
    (point))

  ;; 2. Diagnostics of the open index (flymake).
  (mi-check "diagnostics"
    (let ((d (mi-wait (lambda () (flymake-diagnostics)))))
      (cons d (format "%d on the index, e.g. %s" (length d)
                      (and d (flymake-diagnostic-text (car d)))))))

  ;; 3. Diagnostics of a decision file that was never opened.
  (mi-check "unopened"
    (let ((hit (mi-wait (lambda ()
                          (let ((diags (cdr (assoc ops flymake-list-only-diagnostics))))
                            (seq-find (lambda (d) (string-match-p "unindexed-heading\\|has no entry"
                                                                   (format "%s" (flymake-diagnostic-text d))))
                                      diags))))))
      (cons (and hit (not (get-file-buffer ops)))
            (if hit (format "operations.md: %s" (flymake-diagnostic-text hit))
              (format "nothing for %s in flymake-list-only-diagnostics" ops)))))

  ;; 4. Hover on an entry shows the decision.
  (mi-check "hover"
    (mi-goto "^/when writing mock tests")
    (backward-char 5)
    (let (info)
      (eglot-hover-eldoc-function (lambda (i &rest _) (setq info (or i ""))))
      (mi-wait (lambda () info))
      (cons (and info (string-match-p "When Writing Mock Tests" info) (string-match-p "Source:" info))
            (format "%S" (truncate-string-to-width (replace-regexp-in-string "\n+" " " (or info "no answer")) 70)))))

  ;; 5. Go to definition (xref) lands on the heading in testing.md.
  (mi-check "definition"
    (switch-to-buffer (get-file-buffer index))
    (mi-goto "^/when writing mock tests")
    (backward-char 5)
    (xref-find-definitions (xref-backend-identifier-at-point (xref-find-backend)))
    (let* ((buf (window-buffer (selected-window)))
           (ok (with-current-buffer buf
                 (and (equal (buffer-file-name) testing)
                      (string-match-p "When Writing Mock Tests" (thing-at-point 'line t))))))
      (prog1 (cons ok (with-current-buffer buf
                        (format "%s:%d" (file-name-nondirectory (or (buffer-file-name) "?")) (line-number-at-pos))))
        (switch-to-buffer (get-file-buffer index)))))

  ;; 6. Completion after "/when testi" offers the unindexed heading's trigger.
  (mi-check "completion"
    (with-current-buffer (get-file-buffer index)
      (mi-goto "^## agents/decisions/testing.md\n")
      (insert "/when testi\n")
      (forward-line -1)
      (end-of-line)
      (let* ((capf (eglot-completion-at-point))
             (all (and capf (all-completions "" (nth 2 capf)))))
        (delete-region (line-beginning-position) (1+ (line-end-position)))
        (cons (member "testing payment webhooks" all)
              (format "%d candidates: %s" (length all) (string-join (seq-take all 3) " | "))))))

  ;; 7. Rename a trigger: the entry and its heading change together.
  (mi-check "rename"
    (with-current-buffer (get-file-buffer index)
      (mi-goto "^/when writing mock tests")
      (backward-char 5)
      (eglot-rename "writing test doubles")
      (let* ((entry (save-excursion (mi-goto "^/when writing test doubles") (thing-at-point 'line t)))
             (heading (with-current-buffer (get-file-buffer testing)
                        (save-excursion (goto-char (point-min))
                                        (and (re-search-forward "When Writing Test Doubles" nil t) t)))))
        (cons (and entry heading)
              (format "entry %S, heading renamed: %s" (string-trim (or entry "")) heading)))))

  (mi-finish))
