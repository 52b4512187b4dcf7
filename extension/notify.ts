/**
 * The extension's notifications with their text made safe (issue 21 item 3): VS Code renders
 * `[label](target)` in a notification as a link, a `command:` target included, and the text
 * often carries names read from game files. Every `show*Message` goes through here (the sinks
 * test checks it); the text passes `noticeText` (core/io sinkText.ts).
 */
import * as vscode from 'vscode';
import { noticeText } from '../core/io';

type Show = typeof vscode.window.showInformationMessage;

const safe = (show: () => (...args: unknown[]) => unknown): Show =>
  ((message: string, ...rest: unknown[]) => show()(noticeText(message), ...rest)) as unknown as Show;

export const showInformation = safe(() => vscode.window.showInformationMessage as (...args: unknown[]) => unknown);
export const showWarning = safe(() => vscode.window.showWarningMessage as (...args: unknown[]) => unknown);
export const showError = safe(() => vscode.window.showErrorMessage as (...args: unknown[]) => unknown);
